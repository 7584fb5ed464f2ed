/**
 * `GET /repos/{owner}/{repo}/commits/{sha}/pull`: the pull request whose merge made a commit, as Forgejo finds it
 * (the full merge commit id of a pull request into this repository); any other commit, a head commit included, is
 * a 404 with Forgejo's message, and so is a repository the caller may not see.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PullRequestSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { expectApiError, json } from './helpers';
import { mergeWorld, type MergeWorld } from './pull-merge-support';

describe('the pull request of a commit', () => {
  let w: MergeWorld;

  beforeAll(async () => {
    w = await mergeWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  test('the merge commit names its pull request; its head, its base and a short id do not', async () => {
    const { s, h } = w;
    const { full, clone } = await w.newRepo();
    const base = await w.tip(clone, 'main');
    const head = await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await w.openPull(full, 'feature');

    const before = await s.fetch(`/api/v1/repos/${full}/commits/${head}/pull`, { headers: h });
    expect(await expectApiError(before, 404, s.url)).toMatch(/^pull request does not exist \[id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: \d+, head_branch: , base_branch: \]$/);

    expect((await w.merge(full, index, { Do: 'merge' })).status).toBe(200);
    const merged = await w.tip(clone, 'main');
    expect(merged).not.toBe(base);

    const res = await s.fetch(`/api/v1/repos/${full}/commits/${merged}/pull`, { headers: h });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(matchesSchema(PullRequestSchema, body), schemaErrors(PullRequestSchema, body).join('\n')).toBe(true);
    expect(body).toMatchObject({ number: index, merged: true, merge_commit_sha: merged, state: 'closed' });
    // Anonymous callers may read a public repository's.
    expect((await s.fetch(`/api/v1/repos/${full}/commits/${merged}/pull`)).status).toBe(200);

    for (const other of [head, base, merged.slice(0, 10), 'main']) {
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/commits/${other}/pull`, { headers: h }), 404, s.url);
    }
  });

  test('a private repository is a 404 for those who may not see it', async () => {
    const { s, h, strangerH } = w;
    const { full, clone } = await w.newRepo({ private: true });
    await w.commit(clone, 'feature', { 'b.txt': 'b\n' });
    const index = await w.openPull(full, 'feature');
    expect((await w.merge(full, index, { Do: 'merge' })).status).toBe(200);
    const merged = await w.tip(clone, 'main');
    expect((await s.fetch(`/api/v1/repos/${full}/commits/${merged}/pull`, { headers: h })).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/commits/${merged}/pull`, { headers: strangerH }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/commits/${merged}/pull`), 404, s.url);
  });
});
