/**
 * A merge interrupted between its ref update and its database side (the process "dies" there: the ref update
 * never returns) is finished at the next start: reconciliation finds the merge intent and its marker ref, and
 * marks the pull request merged and closed as the merge would have. Not while another process merges or updates
 * the same pull request (it holds the `pull:<id>` lock): the intent is then left for a later sweep.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { DatabaseLocks, DatabaseUnavailableError, RepoHost, UnavailableError } from '@repohost/core';
import { mergeWorld, type MergeWorld } from './pull-merge-support';

describe('an interrupted merge', () => {
  let w: MergeWorld;

  beforeAll(async () => {
    // A database file (PostgreSQL: one schema) that a second host, standing in for another process, shares.
    w = await mergeWorld({ database: { PATH: 'shared.db' } });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await w?.close();
  });

  /** Starts a merge of a new pull request that "dies" once its refs moved, before the database hears of it. */
  async function interruptedMerge() {
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
    return { full, clone, base, head, index, aborted };
  }

  test('waits for a merge of the same pull request in another process: left for a later sweep, then finished', async () => {
    const { full, clone, index, aborted } = await interruptedMerge();
    const merged = await w.tip(clone, 'main');
    const pullId = (await w.getPull(full, index)).id as number;
    // The stuck merge held the pull request's lock: this host starts over as if restarted, without it. Another
    // process merges or updates the pull request now: it holds the lock merges take.
    await w.s.host.service(DatabaseLocks).reset();
    const other = await RepoHost.open({ settings: w.s.host.settings, reconcile: false });
    try {
      const held = await other.service(DatabaseLocks).acquire(`pull:${pullId}`);
      await w.s.host.repoStorage.reconcile();
      expect((await w.getPull(full, index)).merged).toBe(false);
      // The merge intent stays, let go (its lease ended) for the next pass; the push's was repaired.
      const left = await w.s.host.repoStorage.pending();
      expect(left.map((i) => i.op)).toEqual(['merge']);
      expect(Number(left[0]!.lease_until_unix)).toBe(0);
      // The repair did not take the lock from its holder.
      expect(await other.service(DatabaseLocks).holderOf(`pull:${pullId}`)).toMatchObject({ owner: other.service(DatabaseLocks).owner });

      await held.release();
      const report = await other.repoStorage.sweep();
      expect(report.resynced.length).toBeGreaterThan(0);
      expect(await w.getPull(full, index)).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: merged, merged_by: { login: w.owner } });
      expect(await w.s.host.repoStorage.pending()).toEqual([]);
      expect(await other.service(DatabaseLocks).holderOf(`pull:${pullId}`)).toBeUndefined();
      expect(await w.git(['ls-remote', 'origin', 'refs/repohost/*'], clone)).toBe('');
    } finally {
      aborted.abort();
      await other.close();
    }
  });

  test('a busy resource once the refs moved is waited out: the client gets 200, not a 503 for a merge that happened', async () => {
    const { full, clone } = await w.newRepo();
    await w.commit(clone, 'busy', { 'b.txt': 'b\n' });
    const index = await w.openPull(full, 'busy');
    // The first time the merge is recorded and the first time its push is recorded, a resource is busy (the git
    // process pool full, the database asking for a retry): each transaction fails as it would then, and is tried again.
    const failures: string[] = [];
    const offMerged = w.s.host.events.withinTransaction('pull.merged', async () => {
      if (failures.includes('merged')) return;
      failures.push('merged');
      throw new UnavailableError('too many git operations are running; try again later', 5);
    });
    const offPushed = w.s.host.events.withinTransaction('repo.pushed', async () => {
      if (failures.includes('pushed')) return;
      failures.push('pushed');
      throw new DatabaseUnavailableError(new Error('could not serialize access'));
    });
    try {
      const answer = await w.s.fetch(`/api/v1/repos/${full}/pulls/${index}/merge`, { method: 'POST', headers: { ...w.h, 'content-type': 'application/json' }, body: JSON.stringify({ Do: 'merge' }) });
      expect(answer.status).toBe(200);
      expect(failures).toEqual(['merged', 'pushed']);
      expect(await w.getPull(full, index)).toMatchObject({ merged: true, state: 'closed' });
      expect(await w.s.host.repoStorage.pending()).toEqual([]);
    } finally {
      offMerged();
      offPushed();
    }
  });

  test('is marked merged by start-up reconciliation when the base branch moved', async () => {
    const { full, clone, base, head, index, aborted } = await interruptedMerge();
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
