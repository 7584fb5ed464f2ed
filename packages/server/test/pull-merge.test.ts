/**
 * Merging pull requests end to end with the real git client: branches pushed over HTTP, pull requests opened
 * through the API, merged with each style, and the resulting history read back with `git log` in a clone. Also
 * the refusals (conflict, head moved, disallowed style, readers, closed or merged pull requests, bad input), two
 * merges of one pull request at once, marking merged by hand, deleting the head branch (and retargeting the pull
 * requests based on it), and merge message templates.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonInit } from '@repohost/test-support';
import { expectApiError, json } from './helpers';
import { mergeWorld, type MergeWorld } from './pull-merge-support';

describe('merging pull requests', () => {
  let w: MergeWorld;
  let s: MergeWorld['s'];
  let owner: string;
  let h: Record<string, string>;
  let writer: string;
  let writerH: Record<string, string>;
  let reader: string;
  let readerH: Record<string, string>;
  let strangerH: Record<string, string>;
  const git = (args: string[], cwd: string) => w.git(args, cwd);
  const newRepo = (options?: { private?: boolean }) => w.newRepo(options);
  const commit = (clone: string, branch: string, files: Record<string, string>, options?: { from?: string; message?: string }) => w.commit(clone, branch, files, options);
  const tip = (clone: string, branch: string) => w.tip(clone, branch);
  const openPull = (full: string, head: string, base?: string, headers?: Record<string, string>, title?: string) => w.openPull(full, head, base, headers, title);
  const getPull = (full: string, index: number) => w.getPull(full, index);
  const merge = (full: string, index: number, body: Record<string, unknown>, headers?: Record<string, string>) => w.merge(full, index, body, headers);
  const settings = (full: string, changes: Record<string, unknown>) => w.settings(full, changes);
  const collaborator = (full: string, user: string, permission: 'read' | 'write') => w.collaborator(full, user, permission);
  const eventually = (check: () => Promise<boolean>) => w.eventually(check);

  beforeAll(async () => {
    w = await mergeWorld();
    ({ s, owner, h, writer, writerH, reader, readerH, strangerH } = w);
  });
  afterAll(async () => {
    await w?.close();
  });

  test('merge: a merge commit of base and head by the merger; the pull request is merged and closed', async () => {
    const { full, clone } = await newRepo();
    const base = await tip(clone, 'main');
    const head = await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');

    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, { headers: h })).status).toBe(404);
    const res = await merge(full, index, { Do: 'merge' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.text()).toBe('');
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, { headers: h })).status).toBe(204);
    // Anonymous readers of a public repository see it too.
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`)).status).toBe(204);

    const merged = await tip(clone, 'main');
    expect((await git(['log', '-1', '--format=%P', merged], clone)).split(' ')).toEqual([base, head]);
    expect(await git(['log', '-1', '--format=%s', merged], clone)).toBe(`Merge pull request 'pull feature' (#${index}) from feature into main`);
    expect(await git(['log', '-1', '--format=%an|%cn', merged], clone)).toBe(`${owner}|${owner}`);

    const pr = await getPull(full, index);
    expect(pr).toMatchObject({ state: 'closed', merged: true, merge_commit_sha: merged, merged_by: { login: owner } });
    expect(pr.merged_at).not.toBeNull();

    const timeline = await json(await s.fetch(`/api/v1/repos/${full}/issues/${index}/timeline`, { headers: h }));
    expect(timeline.map((e: { type: string }) => e.type)).toContain('merge_pull');
    expect(timeline.map((e: { type: string }) => e.type)).not.toContain('close');

    // Merged already: Forgejo's 405; and the branch was not asked to go, so it stays.
    expect((await merge(full, index, { Do: 'merge' })).status).toBe(405);
    expect((await git(['ls-remote', '--heads', 'origin', 'feature'], clone)) !== '').toBe(true);
  });

  test('squash: one commit on top of the base, authored by the poster, with a co-author trailer', async () => {
    const { full, clone } = await newRepo();
    await collaborator(full, writer, 'write');
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    await commit(clone, 'feature', { 'b.txt': 'b\n' });
    const base = await commit(clone, 'main', { 'other.txt': 'other\n' });
    const index = await openPull(full, 'feature', 'main', writerH, 'squash me');

    const res = await merge(full, index, { Do: 'squash', MergeMessageField: 'the details' });
    expect(res.status, await res.clone().text()).toBe(200);
    const merged = await tip(clone, 'main');
    expect(await git(['log', '-1', '--format=%P', merged], clone)).toBe(base);
    expect(await git(['log', '-1', '--format=%an|%cn', merged], clone)).toBe(`${writer}|${owner}`);
    const message = await git(['log', '-1', '--format=%B', merged], clone);
    expect(message.split('\n')[0]).toBe(`squash me (#${index})`);
    expect(message).toContain('the details');
    expect(message).toMatch(new RegExp(`Co-authored-by: ${writer} <`));
    expect(await git(['show', `${merged}:a.txt`], clone)).toBe('a');
    expect(await git(['show', `${merged}:b.txt`], clone)).toBe('b');
  });

  test('rebase: the head commits replayed on the base, linear, authors kept and the merger committing', async () => {
    const { full, clone } = await newRepo();
    const first = await commit(clone, 'feature', { 'a.txt': 'a\n' }, { message: 'first' });
    await commit(clone, 'feature', { 'b.txt': 'b\n' }, { message: 'second' });
    const base = await commit(clone, 'main', { 'other.txt': 'other\n' });
    const index = await openPull(full, 'feature');

    const res = await merge(full, index, { Do: 'rebase' });
    expect(res.status, await res.clone().text()).toBe(200);
    const merged = await tip(clone, 'main');
    expect(await git(['rev-list', '--merges', `${base}..${merged}`], clone)).toBe('');
    expect((await git(['log', '--format=%s', `${base}..${merged}`], clone)).split('\n')).toEqual(['second', 'first']);
    expect(await git(['log', '-1', '--format=%an|%cn', merged], clone)).toBe(`Tester|${owner}`);
    expect(await git(['rev-list', '--count', `${base}..${merged}`], clone)).toBe('2');
    expect(await git(['merge-base', '--is-ancestor', first, merged], clone).then(() => true, () => false)).toBe(false);
    expect((await getPull(full, index)).merge_commit_sha).toBe(merged);
  });

  test('rebase-merge: the replayed commits joined by a merge commit', async () => {
    const { full, clone } = await newRepo();
    await commit(clone, 'feature', { 'a.txt': 'a\n' }, { message: 'first' });
    const base = await commit(clone, 'main', { 'other.txt': 'other\n' });
    const index = await openPull(full, 'feature');

    const res = await merge(full, index, { Do: 'rebase-merge', MergeTitleField: 'Custom title' });
    expect(res.status, await res.clone().text()).toBe(200);
    const merged = await tip(clone, 'main');
    const [first, second] = (await git(['log', '-1', '--format=%P', merged], clone)).split(' ');
    expect(first).toBe(base);
    expect(await git(['log', '-1', '--format=%P', second!], clone)).toBe(base);
    expect(await git(['log', '-1', '--format=%s', second!], clone)).toBe('first');
    expect(await git(['log', '-1', '--format=%s', merged], clone)).toBe('Custom title');
  });

  test('fast-forward-only: the base moves to the head; a diverged base is refused with 409', async () => {
    const { full, clone } = await newRepo();
    const head = await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');
    const res = await merge(full, index, { Do: 'fast-forward-only' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await tip(clone, 'main')).toBe(head);

    await commit(clone, 'other', { 'b.txt': 'b\n' });
    const base = await commit(clone, 'main', { 'c.txt': 'c\n' });
    const second = await openPull(full, 'other');
    await expectApiError(await merge(full, second, { Do: 'fast-forward-only' }), 409, s.url);
    expect(await tip(clone, 'main')).toBe(base);
    expect((await getPull(full, second)).merged).toBe(false);
  });

  test('refusals: conflicts, a moved head, a disallowed style, readers, strangers, anonymous, bad input', async () => {
    const { full, clone } = await newRepo({ private: true });
    await collaborator(full, reader, 'read');
    await commit(clone, 'clash', { 'README.md': 'theirs\n' });
    await commit(clone, 'main', { 'README.md': 'ours\n' });
    const clashing = await openPull(full, 'clash');
    const base = await tip(clone, 'main');
    expect(await expectApiError(await merge(full, clashing, { Do: 'merge' }), 405, s.url)).toBe('Please try again later');

    const head = await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');
    expect(await expectApiError(await merge(full, index, { Do: 'merge', head_commit_id: base }), 409, s.url)).toBe('head out of date');

    await settings(full, { allow_squash_merge: false });
    expect(await expectApiError(await merge(full, index, { Do: 'squash' }), 405, s.url)).toBe('squash is not an allowed merge style for this repository');
    expect(await expectApiError(await merge(full, index, { Do: 'manually-merged', MergeCommitID: head }), 405, s.url)).toBe(
      'manually-merged is not an allowed merge style for this repository',
    );

    expect(await expectApiError(await merge(full, index, { Do: 'merge' }, readerH), 405, s.url)).toBe('User not allowed to merge PR');
    await expectApiError(await merge(full, index, { Do: 'merge' }, strangerH), 404, s.url);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, jsonInit('POST', { Do: 'merge' }))).status).toBe(401);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`)).status).toBe(404);
    await expectApiError(await merge(full, index, { Do: 'bogus' }), 422, s.url);
    await expectApiError(await merge(full, index, {}), 422, s.url);
    await expectApiError(await merge(full, 999, { Do: 'merge' }), 404, s.url);
    expect(await tip(clone, 'main')).toBe(base);

    // A closed pull request is not there to merge.
    const closed = await s.fetch(`/api/v1/repos/${full}/pulls/${index}`, jsonInit('PATCH', { state: 'closed' }, h));
    expect(closed.status).toBe(201);
    await expectApiError(await merge(full, index, { Do: 'merge' }), 404, s.url);
    expect((await getPull(full, index)).merged).toBe(false);
  });

  test('a draft (WIP title) is refused with 405', async () => {
    const { full, clone } = await newRepo();
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature', 'main', h, 'WIP: not yet');
    expect(await expectApiError(await merge(full, index, { Do: 'merge' }), 405, s.url)).toBe('Work in progress PRs cannot be merged');
  });

  test('two merges of one pull request at once: one wins, the other is refused, one merge commit', async () => {
    const { full, clone } = await newRepo();
    const base = await tip(clone, 'main');
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');
    const [a, b] = await Promise.all([merge(full, index, { Do: 'merge' }), merge(full, index, { Do: 'merge' })]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([405, 409]).toContain(statuses[1]);
    const merged = await tip(clone, 'main');
    expect(await git(['rev-list', '--count', `${base}..${merged}`, '--merges'], clone)).toBe('1');
    expect((await getPull(full, index)).merge_commit_sha).toBe(merged);
  });

  test('manually-merged: marks merged by a commit the base contains; a wrong id is 409', async () => {
    const { full, clone } = await newRepo();
    await settings(full, { allow_manual_merge: true });
    const head = await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');
    expect(await expectApiError(await merge(full, index, { Do: 'manually-merged', MergeCommitID: head }), 409, s.url)).toBe('Wrong commit ID');
    expect(await expectApiError(await merge(full, index, { Do: 'manually-merged', MergeCommitID: 'abc' }), 409, s.url)).toBe('Wrong commit ID');

    // Merged outside the forge, then marked.
    await git(['checkout', '-q', 'main'], clone);
    await git(['merge', '-q', '--no-ff', '-m', 'by hand', 'origin/feature'], clone);
    await git(['push', '-q', 'origin', 'main'], clone);
    const merged = await git(['rev-parse', 'HEAD'], clone);
    const res = await merge(full, index, { Do: 'manually-merged', MergeCommitID: merged });
    expect(res.status, await res.clone().text()).toBe(200);
    const pr = await getPull(full, index);
    expect(pr).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: merged, merged_by: { login: owner } });
    expect(await tip(clone, 'main')).toBe(merged);
  });

  test('autodetect_manual_merge: a push that merges the head by hand marks the pull request merged', async () => {
    const { full, clone } = await newRepo();
    await settings(full, { autodetect_manual_merge: true });
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    await commit(clone, 'main', { 'b.txt': 'b\n' });
    const index = await openPull(full, 'feature');
    await git(['checkout', '-q', 'main'], clone);
    await git(['merge', '-q', '--no-ff', '-m', 'merged by hand', 'origin/feature'], clone);
    await git(['push', '-q', 'origin', 'main'], clone);
    const merged = await git(['rev-parse', 'HEAD'], clone);
    await eventually(async () => (await getPull(full, index)).merged === true);
    expect(await getPull(full, index)).toMatchObject({ state: 'closed', merge_commit_sha: merged, merged_by: { login: owner } });
  });

  test('delete_branch_after_merge: the head branch goes and pull requests into it move to the base', async () => {
    const { full, clone } = await newRepo();
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    await commit(clone, 'child', { 'b.txt': 'b\n' }, { from: 'feature' });
    const parent = await openPull(full, 'feature');
    const child = await openPull(full, 'child', 'feature');

    const res = await merge(full, parent, { Do: 'merge', delete_branch_after_merge: true });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await git(['ls-remote', '--heads', 'origin', 'feature'], clone)).toBe('');
    const moved = await getPull(full, child);
    expect(moved.base.ref).toBe('main');
    const timeline = await json(await s.fetch(`/api/v1/repos/${full}/issues/${parent}/timeline`, { headers: h }));
    expect(timeline.map((e: { type: string }) => e.type)).toContain('delete_branch');
    const childTimeline = await json(await s.fetch(`/api/v1/repos/${full}/issues/${child}/timeline`, { headers: h }));
    expect(childTimeline.map((e: { type: string }) => e.type)).toContain('change_target_branch');
  });

  test("the repository's default_delete_branch_after_merge applies when the request says nothing", async () => {
    const { full, clone } = await newRepo();
    await settings(full, { default_delete_branch_after_merge: true });
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');
    expect((await merge(full, index, { Do: 'merge' })).status).toBe(200);
    expect(await git(['ls-remote', '--heads', 'origin', 'feature'], clone)).toBe('');
  });

  test('merge message templates: the first line is the title, variables expanded', async () => {
    const { full, clone } = await newRepo();
    await commit(clone, 'main', { '.forgejo/default_merge_message/MERGE_TEMPLATE.md': 'Merged ${PullRequestTitle} into $BaseBranch\nSee ${PullRequestReference}\n' });
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature', 'main', h, 'the feature');
    expect((await merge(full, index, { Do: 'merge' })).status).toBe(200);
    const merged = await tip(clone, 'main');
    expect(await git(['log', '-1', '--format=%s', merged], clone)).toBe('Merged the feature into main');
  });

  test('merge message templates: the lines after the first are the description unless the caller writes one', async () => {
    const { full, clone } = await newRepo();
    await commit(clone, 'main', { '.gitea/default_merge_message/SQUASH_TEMPLATE.md': '$PullRequestTitle (${PullRequestReference})\n\nSquashed from $HeadBranch.\n${ReviewedOn}\n' });
    for (const [branch, body, title, description] of [
      ['one', { Do: 'squash' }, 'first (#N)', 'Squashed from one.\nReviewed-on: '],
      // Go clients send the field empty when the user wrote nothing.
      ['two', { Do: 'squash', MergeTitleField: 'My title', MergeMessageField: '' }, 'My title', 'Squashed from two.\nReviewed-on: '],
      ['three', { Do: 'squash', MergeMessageField: 'Written by the caller' }, 'first (#N)', 'Written by the caller'],
    ] as const) {
      await commit(clone, branch, { [`${branch}.txt`]: 'x\n' }, { from: 'main' });
      const index = await openPull(full, branch, 'main', h, 'first');
      const res = await merge(full, index, body);
      expect(res.status, await res.clone().text()).toBe(200);
      const merged = await tip(clone, 'main');
      expect(await git(['log', '-1', '--format=%s', merged], clone), branch).toBe(title.replace('N', String(index)));
      const text = await git(['log', '-1', '--format=%b', merged], clone);
      expect(text.startsWith(description), `${branch}: ${text}`).toBe(true);
    }
  });

  test('rebase with a REBASE template: the last replayed commit takes the template message', async () => {
    const { full, clone } = await newRepo();
    await collaborator(full, writer, 'write');
    await commit(clone, 'main', { '.gitea/default_merge_message/REBASE_TEMPLATE.md': 'Rebased: $CommitTitle (${PullRequestReference})\n$CommitBody\n$ReviewedBy\n' });
    await commit(clone, 'feature', { 'a.txt': 'a\n' }, { message: 'first' });
    await commit(clone, 'feature', { 'b.txt': 'b\n' }, { message: 'second' });
    const base = await commit(clone, 'main', { 'c.txt': 'c\n' });
    const index = await openPull(full, 'feature');
    const approved = await s.fetch(`/api/v1/repos/${full}/pulls/${index}/reviews`, jsonInit('POST', { event: 'APPROVED', body: 'fine' }, writerH));
    expect(approved.status, await approved.clone().text()).toBe(200);
    expect((await merge(full, index, { Do: 'rebase' })).status).toBe(200);
    const merged = await tip(clone, 'main');
    expect((await git(['log', '--format=%s|%an', `${base}..${merged}`], clone)).split('\n')).toEqual([`Rebased: second (#${index})|Tester`, 'first|Tester']);
    expect(await git(['log', '-1', '--format=%b', merged], clone)).toMatch(new RegExp(`^Reviewed-by: ${writer} <`, 'm'));
  });

  test('branch protection: required checks block the merge; force_merge lets the administrator past; a scheduled merge waits for them', async () => {
    const { full, clone } = await newRepo();
    await collaborator(full, writer, 'write');
    const head = await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');
    const rule = await s.fetch(`/api/v1/repos/${full}/branch_protections`, jsonInit('POST', { rule_name: 'main', enable_status_check: true, status_check_contexts: ['ci'] }, h));
    expect(rule.status, await rule.clone().text()).toBe(201);
    expect(await expectApiError(await merge(full, index, { Do: 'merge' }), 405, s.url)).toBe('not allowed to merge [reason: Not all required status checks successful]');
    // A writer may not force; the owner (repository administrator, the rule not applying to admins) may.
    expect((await merge(full, index, { Do: 'merge', force_merge: true }, writerH)).status).toBe(405);

    await commit(clone, 'second', { 'b.txt': 'b\n' });
    const second = await openPull(full, 'second');
    const scheduled = await merge(full, second, { Do: 'merge', merge_when_checks_succeed: true }, writerH);
    expect(scheduled.status, await scheduled.clone().text()).toBe(201);
    const secondHead = (await getPull(full, second)).head.sha;
    const lint = await s.fetch(`/api/v1/repos/${full}/statuses/${secondHead}`, jsonInit('POST', { state: 'success', context: 'lint' }, h));
    expect(lint.status).toBe(201);
    expect((await getPull(full, second)).merged).toBe(false);
    const ci = await s.fetch(`/api/v1/repos/${full}/statuses/${secondHead}`, jsonInit('POST', { state: 'success', context: 'ci' }, h));
    expect(ci.status).toBe(201);
    await eventually(async () => (await getPull(full, second)).merged === true);

    const forced = await merge(full, index, { Do: 'merge', force_merge: true });
    expect(forced.status, await forced.clone().text()).toBe(200);
    const merged = await tip(clone, 'main');
    expect((await git(['log', '-1', '--format=%P', merged], clone)).split(' ')[1]).toBe(head);
  });

  test('issues the pull request says it fixes are closed by the merge, with its commit', async () => {
    const { full, clone } = await newRepo();
    const issue = await json(await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title: 'broken' }, h)));
    await commit(clone, 'fix', { 'a.txt': 'a\n' });
    const opened = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: 'fix', base: 'main', title: 'the fix', body: `Fixes #${issue.number}` }, h));
    expect(opened.status).toBe(201);
    const index = (await json(opened)).number;
    expect((await json(await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}`, { headers: h }))).state).toBe('open');
    expect((await merge(full, index, { Do: 'squash' })).status).toBe(200);
    const merged = await tip(clone, 'main');
    await eventually(async () => (await json(await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}`, { headers: h }))).state === 'closed');
    const timeline = await json(await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}/timeline`, { headers: h }));
    const closed = timeline.find((e: { type: string }) => e.type === 'close');
    expect(closed?.user?.login).toBe(owner);
    expect(closed?.ref_commit_sha).toBe(merged);
  });

  test('a base that moved after the check is merged as it is now', async () => {
    const { full, clone } = await newRepo();
    await commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await openPull(full, 'feature');
    await eventually(async () => (await getPull(full, index)).mergeable === true);
    // The base moves after the check: the merge still computes against the new base and succeeds.
    const moved = await commit(clone, 'main', { 'z.txt': 'z\n' });
    const res = await merge(full, index, { Do: 'merge' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await git(['log', '-1', '--format=%P', await tip(clone, 'main')], clone)).split(' ')[0]).toBe(moved);
  });
});
