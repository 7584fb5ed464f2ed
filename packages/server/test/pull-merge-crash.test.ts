/**
 * A merge interrupted between its ref update and its database side (the process "dies" there: the ref update
 * never returns) is finished at the next start: reconciliation finds the merge intent and its marker ref, and
 * marks the pull request merged and closed as the merge would have.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { mergeWorld, type MergeWorld } from './pull-merge-support';

describe('an interrupted merge', () => {
  let w: MergeWorld;

  beforeAll(async () => {
    w = await mergeWorld();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await w?.close();
  });

  test('is marked merged by start-up reconciliation when the base branch moved', async () => {
    const { full, clone } = await w.newRepo();
    const base = await w.tip(clone, 'main');
    const head = await w.commit(clone, 'feature', { 'a.txt': 'a\n' });
    const index = await w.openPull(full, 'feature');

    const git = w.s.host.git;
    const real = git.updateRefs.bind(git);
    const stuck = vi.spyOn(git, 'updateRefs').mockImplementationOnce(async (key, updates) => {
      await real(key, updates);
      // The refs moved; the process dies before the database hears of it.
      return new Promise<never>(() => {});
    });
    const aborted = new AbortController();
    void w.s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, { method: 'POST', headers: { ...w.h, 'content-type': 'application/json' }, body: JSON.stringify({ Do: 'merge' }), signal: aborted.signal }).catch(() => undefined);
    await vi.waitFor(() => expect(stuck).toHaveBeenCalled(), { timeout: 20_000 });
    await w.eventually(async () => (await w.tip(clone, 'main')) !== base);
    const merged = await w.tip(clone, 'main');
    expect((await w.git(['log', '-1', '--format=%P', merged], clone)).split(' ')).toEqual([base, head]);
    expect((await w.getPull(full, index)).merged).toBe(false);
    expect((await w.s.host.repoStorage.pending()).map((i) => i.op).sort()).toEqual(['merge', 'sync']);

    const report = await w.s.host.repoStorage.reconcile();
    expect(report.resynced.length).toBeGreaterThan(0);
    const pr = await w.getPull(full, index);
    expect(pr).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: merged, merged_by: { login: w.owner } });
    expect(await w.s.host.repoStorage.pending()).toEqual([]);
    expect(await w.git(['ls-remote', 'origin', 'refs/repohost/*'], clone)).toBe('');
    aborted.abort();
  });
});
