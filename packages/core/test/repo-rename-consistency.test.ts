/**
 * Renames, transfers and default-branch changes keep git storage and the database in agreement: each records an
 * intent before its git step, and reconciliation (what opening a host runs) puts the storage back where the row
 * says it is when the row change never committed. An interruption is a git step that never returns, as if the
 * process had died there; a failing transaction is undone at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SYSTEM, userActor, type RepoHost, type RepoKey, type User } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

const never = () => new Promise<never>(() => {});
const key = (owner: string, name: string): RepoKey => ({ owner, name });
const author = { name: 'a', email: 'a@b.c' };

describe('renames and transfers: git storage and database consistency', () => {
  let t: TestHost;
  let host: RepoHost;
  let alice: User;
  let bob: User;

  beforeEach(async () => {
    t = await openTestHost();
    host = t.host;
    alice = await createUser(host, 'alice');
    bob = await createUser(host, 'bob');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  /** Makes the next `git.rename` move the storage and then hang, as if the process died right after the move. */
  function dieAfterNextMove() {
    const real = host.git.rename.bind(host.git);
    return vi.spyOn(host.git, 'rename').mockImplementationOnce(async (from, to) => {
      await real(from, to);
      return never();
    });
  }

  it('leaves no intent behind after ordinary renames, default-branch changes and transfers', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
    const renamed = await host.repoSettings.rename(userActor(alice), access, 'demo2');
    await host.git.commitFiles(key('alice', 'demo2'), { branch: 'dev', message: 'm', author, files: [{ path: 'f', content: 'x' }] });
    await host.repoSettings.edit(userActor(alice), renamed, { default_branch: 'dev' });
    const admin = await createUser(host, 'root', { admin: true });
    await host.repoTransfers.start(userActor(admin), await host.repos.resolve(SYSTEM, 'alice', 'demo2'), { new_owner: 'bob' });
    expect(await host.repoStorage.pending()).toEqual([]);
    expect(await host.git.exists(key('bob', 'demo2'))).toBe(true);
    expect((await host.git.describe(key('bob', 'demo2'))).headBranch).toBe('dev');
    expect((await host.repos.resolve(SYSTEM, 'bob', 'demo2')).repo.default_branch).toBe('dev');
  });

  it('moves the storage back when a rename died after moving it, before the row changed', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'before', auto_init: true });
    const rename = dieAfterNextMove();
    void host.repoSettings.rename(userActor(alice), access, 'after');
    await vi.waitFor(async () => {
      expect(rename).toHaveBeenCalled();
      expect(await host.git.exists(key('alice', 'after'))).toBe(true);
    });
    expect(await host.repoStorage.pending()).toHaveLength(1);
    expect((await host.repos.resolve(SYSTEM, 'alice', 'before')).repo.name).toBe('before');

    const report = await host.repoStorage.reconcile();
    expect(report.undoneRenames).toEqual([key('alice', 'before')]);
    expect(await host.git.exists(key('alice', 'before'))).toBe(true);
    expect(await host.git.exists(key('alice', 'after'))).toBe(false);
    expect(await host.git.isEmpty(key('alice', 'before'))).toBe(false);
    expect(await host.repoStorage.pending()).toEqual([]);
    // The name is free again, and the rename can be done.
    const retried = await host.repoSettings.rename(userActor(alice), await host.repos.resolve(SYSTEM, 'alice', 'before'), 'after');
    expect(retried.repo.name).toBe('after');
  });

  it('leaves the storage alone when a rename died before moving it', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'stay', auto_init: true });
    const rename = vi.spyOn(host.git, 'rename').mockImplementationOnce(never);
    void host.repoSettings.rename(userActor(alice), access, 'gone');
    await vi.waitFor(() => expect(rename).toHaveBeenCalled());
    const report = await host.repoStorage.reconcile();
    expect(report.undoneRenames).toEqual([]);
    expect(await host.git.exists(key('alice', 'stay'))).toBe(true);
    expect(await host.repoStorage.pending()).toEqual([]);
  });

  it('moves the storage back to the old owner when a transfer died midway; counts are untouched', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'gift', auto_init: true });
    const admin = await createUser(host, 'root', { admin: true });
    const rename = dieAfterNextMove();
    void host.repoTransfers.start(userActor(admin), access, { new_owner: 'bob' });
    await vi.waitFor(async () => {
      expect(rename).toHaveBeenCalled();
      expect(await host.git.exists(key('bob', 'gift'))).toBe(true);
    });
    const report = await host.repoStorage.reconcile();
    expect(report.undoneRenames).toEqual([key('alice', 'gift')]);
    expect(await host.git.exists(key('alice', 'gift'))).toBe(true);
    expect(await host.git.exists(key('bob', 'gift'))).toBe(false);
    expect((await host.repos.resolve(SYSTEM, 'alice', 'gift')).owner.id).toBe(alice.id);
    expect((await host.users.findById(alice.id))!.num_repos).toBe(1);
    expect((await host.users.findById(bob.id))!.num_repos).toBe(0);
  });

  it('points HEAD back at the recorded default branch when a change of it died before the row changed', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'heady', auto_init: true });
    await host.git.commitFiles(key('alice', 'heady'), { branch: 'dev', message: 'm', author, files: [{ path: 'f', content: 'x' }] });
    const real = host.git.setDefaultBranch.bind(host.git);
    const setHead = vi.spyOn(host.git, 'setDefaultBranch').mockImplementationOnce(async (k, branch) => {
      await real(k, branch);
      return never();
    });
    void host.repoSettings.edit(userActor(alice), access, { default_branch: 'dev' });
    await vi.waitFor(async () => {
      expect(setHead).toHaveBeenCalled();
      expect((await host.git.describe(key('alice', 'heady'))).headBranch).toBe('dev');
    });
    const report = await host.repoStorage.reconcile();
    expect(report.resynced).toEqual([key('alice', 'heady')]);
    expect((await host.git.describe(key('alice', 'heady'))).headBranch).toBe('main');
    expect((await host.repos.resolve(SYSTEM, 'alice', 'heady')).repo.default_branch).toBe('main');
  });

  it('undoes both when a rename with a new default branch died after both git steps', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'pair', auto_init: true });
    await host.git.commitFiles(key('alice', 'pair'), { branch: 'dev', message: 'm', author, files: [{ path: 'f', content: 'x' }] });
    const real = host.git.setDefaultBranch.bind(host.git);
    // The change "dies" once its HEAD step has finished (git's HEAD.lock released), not while it runs.
    let headSet = false;
    vi.spyOn(host.git, 'setDefaultBranch').mockImplementationOnce(async (k, branch) => {
      await real(k, branch);
      headSet = true;
      return never();
    });
    void host.repoSettings.edit(userActor(alice), access, { name: 'pair2', default_branch: 'dev' });
    await vi.waitFor(() => expect(headSet).toBe(true), { timeout: 30_000 });
    expect(await host.repoStorage.pending()).toHaveLength(2);
    const report = await host.repoStorage.reconcile();
    expect(report.undoneRenames).toEqual([key('alice', 'pair')]);
    expect(await host.git.exists(key('alice', 'pair2'))).toBe(false);
    expect((await host.git.describe(key('alice', 'pair'))).headBranch).toBe('main');
    expect(await host.repoStorage.pending()).toEqual([]);
  });

  it('undoes the git steps at once when the transaction recording them fails', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'firm', auto_init: true });
    await host.git.commitFiles(key('alice', 'firm'), { branch: 'dev', message: 'm', author, files: [{ path: 'f', content: 'x' }] });
    const stop = host.events.withinTransaction('repo.edited', async () => {
      throw new Error('refused by a subscriber');
    });
    await expect(host.repoSettings.edit(userActor(alice), access, { name: 'firm2', default_branch: 'dev' })).rejects.toThrow(/refused/);
    stop();
    expect(await host.git.exists(key('alice', 'firm'))).toBe(true);
    expect(await host.git.exists(key('alice', 'firm2'))).toBe(false);
    expect((await host.git.describe(key('alice', 'firm'))).headBranch).toBe('main');
    expect(await host.repoStorage.pending()).toEqual([]);
    expect((await host.repos.resolve(SYSTEM, 'alice', 'firm')).repo).toMatchObject({ name: 'firm', default_branch: 'main' });
  });

  it('removes storage a move left when the repository was deleted meanwhile', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'fleeting', auto_init: true });
    const rename = dieAfterNextMove();
    void host.repoSettings.rename(userActor(alice), access, 'fled');
    await vi.waitFor(async () => {
      expect(rename).toHaveBeenCalled();
      expect(await host.git.exists(key('alice', 'fled'))).toBe(true);
    });
    // The row goes (its storage was not where it said, so the deletion removed nothing).
    await host.repos.delete(userActor(alice), access);
    const report = await host.repoStorage.reconcile();
    expect(report.finishedRemovals).toContainEqual(key('alice', 'fled'));
    expect(await host.git.exists(key('alice', 'fled'))).toBe(false);
    expect(await host.repoStorage.check()).toEqual({ unadopted: [], missing: [] });
  });

  it('a push interrupted before a rename is resynced in the storage where the row now is', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'busy' });
    await host.repos.beginPush(access);
    await host.git.commitFiles(key('alice', 'busy'), { branch: 'feature', message: 'm', author, files: [{ path: 'f', content: 'x' }] });
    await host.repoSettings.rename(userActor(alice), access, 'busier');
    const report = await host.repoStorage.reconcile();
    expect(report.resynced).toEqual([key('alice', 'busier')]);
    expect((await host.repos.resolve(SYSTEM, 'alice', 'busier')).repo).toMatchObject({ is_empty: 0, default_branch: 'feature' });
  });
});
