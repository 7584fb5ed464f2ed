/**
 * The pieces of a merge's commit message: Forgejo's default titles, templates (first line the title, the rest the
 * body, `$Variables` expanded as Go's os.Expand does) and git-style trailers.
 */
import { describe, expect, test } from 'vitest';
import { addTrailer, composeMergeMessage, defaultMergeMessage, expandVariables, mergeTemplatePaths, templateDescription, type MergeMessageFacts } from '@repohost/core';

const facts: MergeMessageFacts = {
  style: 'merge',
  title: 'Add things',
  description: 'It adds things.',
  index: 7,
  reference: '#',
  baseOwner: 'alice',
  baseRepo: 'demo',
  baseBranch: 'main',
  headOwner: 'bob',
  headRepo: 'demo',
  headBranch: 'feature',
  sameRepo: true,
  posterName: 'bob',
  htmlUrl: 'http://localhost/alice/demo/pulls/7',
  reviewedBy: '',
};

describe('merge messages', () => {
  test("Forgejo's default titles per style and origin", () => {
    expect(defaultMergeMessage(facts).title).toBe("Merge pull request 'Add things' (#7) from feature into main");
    expect(defaultMergeMessage({ ...facts, sameRepo: false }).title).toBe("Merge pull request 'Add things' (#7) from bob/demo:feature into main");
    expect(defaultMergeMessage({ ...facts, sameRepo: false, headOwner: undefined, headRepo: undefined }).title).toBe(
      "Merge pull request 'Add things' (#7) from <deleted>:feature into main",
    );
    expect(defaultMergeMessage({ ...facts, style: 'squash', reference: '!' }).title).toBe('Add things (!7)');
    expect(defaultMergeMessage(facts).body).toBe('Reviewed-on: http://localhost/alice/demo/pulls/7\n');
    expect(mergeTemplatePaths('rebase-merge')).toEqual(['.forgejo/default_merge_message/REBASE-MERGE_TEMPLATE.md', '.gitea/default_merge_message/REBASE-MERGE_TEMPLATE.md']);
  });

  test('templates: first line the title, the rest the body; empty parts fall back; a rebase without one keeps its commits', () => {
    expect(composeMergeMessage(facts, 'Merge #${PullRequestIndex}: $PullRequestTitle\n\n${PullRequestDescription}\n\n')).toEqual({
      title: 'Merge #7: Add things',
      body: '\nIt adds things.',
    });
    expect(composeMergeMessage(facts, '\nonly a body')).toEqual({ title: "Merge pull request 'Add things' (#7) from feature into main", body: 'only a body' });
    expect(composeMergeMessage(facts, 'just a title ${HeadBranch}')).toEqual({ title: 'just a title feature', body: defaultMergeMessage(facts).body });
    expect(composeMergeMessage({ ...facts, style: 'rebase' }, undefined)).toEqual({ title: '', body: '' });
    expect(composeMergeMessage(facts, undefined)).toEqual(defaultMergeMessage(facts));
  });

  test('the description a template gives: the lines after the first, expanded; none without them', () => {
    expect(templateDescription(facts, 'Title\n\n${PullRequestDescription}\nfrom $HeadBranch\n\n')).toBe('\nIt adds things.\nfrom feature');
    expect(templateDescription(facts, '\nonly a body')).toBe('only a body');
    expect(templateDescription(facts, 'just a title')).toBeUndefined();
    expect(templateDescription(facts, 'a title\n  \n')).toBeUndefined();
    expect(templateDescription(facts, undefined)).toBeUndefined();
  });

  test("variables expand as Go's os.Expand", () => {
    const vars: Record<string, string> = { A: 'x', AB: 'y', '1': 'one' };
    const lookup = (name: string) => vars[name] ?? '';
    expect(expandVariables('$A ${A}B $AB $1 ${1} $ end $', lookup)).toBe('x xB y one one $ end $');
    expect(expandVariables('${} ${unclosed', lookup)).toBe(' unclosed');
    expect(expandVariables('$Unknown.', lookup)).toBe('.');
  });

  test('trailers join a trailer block or start one', () => {
    expect(addTrailer('Title', 'Co-authored-by', 'A <a@x>')).toBe('Title\n\nCo-authored-by: A <a@x>');
    expect(addTrailer('Title\n\nSigned-off-by: B <b@x>\n', 'Co-authored-by', 'A <a@x>')).toBe('Title\n\nSigned-off-by: B <b@x>\nCo-authored-by: A <a@x>');
    expect(addTrailer('Title\n\nbody text', 'Co-authored-by', 'A <a@x>')).toBe('Title\n\nbody text\n\nCo-authored-by: A <a@x>');
  });
});
