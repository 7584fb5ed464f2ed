/**
 * Git storage and the database agree after any interruption: each change that touches both records an intent
 * first, and reconciliation (what opening a host runs) finishes or undoes what an interrupted change left. An
 * interruption is simulated by a git step that never returns, as if the process had died there.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, ForbiddenError, NotFoundError, SYSTEM, userActor, type RepoHost, type User } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

const never = () => new Promise<never>(() => {});
const key = (name: string) => ({ owner: 'alice', name });

describe('git storage and database consistency', () => {
  let t: TestHost;
  let host: RepoHost;
  let alice: User;

  beforeEach(async () => {
    t = await openTestHost();
    host = t.host;
    alice = await createUser(host, 'alice');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  it('leaves no intent behind after ordinary creates, deletes and pushes', async () => {
    const repo = await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
    const intent = await host.repos.beginPush(repo);
    expect(await host.repoStorage.pending()).toHaveLength(1);
    await host.repos.recordPush(userActor(alice), repo, [], intent);
    await host.repos.delete(userActor(alice), repo);
    expect(await host.repoStorage.pending()).toEqual([]);
    expect(await host.git.exists(key('demo'))).toBe(false);
  });

  it('removes the storage of a creation interrupted before its row committed, and frees the name', async () => {
    const size = vi.spyOn(host.git, 'size').mockImplementationOnce(never);
    void host.repos.create(userActor(alice), { name: 'burst', auto_init: true });
    // Stuck after the storage and its first commit were written, before the row.
    await vi.waitFor(() => expect(size).toHaveBeenCalled());
    expect(await host.repoStorage.pending()).toHaveLength(1);
    expect(await host.git.exists(key('burst'))).toBe(true);
    // Without repair the name would stay blocked by files no row claims.
    await expect(host.repos.create(userActor(alice), { name: 'burst' })).rejects.toBeInstanceOf(ConflictError);

    const report = await host.repoStorage.reconcile();
    expect(report.abandonedCreates).toEqual([key('burst')]);
    expect(await host.git.exists(key('burst'))).toBe(false);
    expect(await host.repoStorage.pending()).toEqual([]);
    expect((await host.repos.create(userActor(alice), { name: 'burst' })).repo.name).toBe('burst');
  });

  it('keeps the storage of a creation whose row did commit', async () => {
    await host.repos.create(userActor(alice), { name: 'kept', auto_init: true });
    // An intent whose change completed is deleted with the row's transaction; one naming a live row is harmless.
    const access = await host.repos.resolve(SYSTEM, 'alice', 'kept');
    await host.repos.beginPush(access);
    await host.repoStorage.reconcile();
    expect(await host.git.exists(key('kept'))).toBe(true);
    expect(await host.git.isEmpty(key('kept'))).toBe(false);
  });

  it('finishes a deletion interrupted after its row was deleted', async () => {
    const repo = await host.repos.create(userActor(alice), { name: 'doomed', auto_init: true });
    const remove = vi.spyOn(host.git, 'remove').mockImplementationOnce(never);
    void host.repos.delete(userActor(alice), repo);
    await vi.waitFor(() => expect(remove).toHaveBeenCalled());
    expect(await host.repoStorage.pending()).toHaveLength(1);
    await expect(host.repos.resolve(SYSTEM, 'alice', 'doomed')).rejects.toBeInstanceOf(NotFoundError);
    expect(await host.git.exists(key('doomed'))).toBe(true);

    const report = await host.repoStorage.reconcile();
    expect(report.finishedRemovals).toEqual([key('doomed')]);
    expect(await host.git.exists(key('doomed'))).toBe(false);
    expect((await host.users.findById(alice.id))!.num_repos).toBe(0);
  });

  it('keeps the rows and the storage when the deleting transaction fails', async () => {
    const admin = await createUser(host, 'root', { admin: true });
    await host.repos.create(userActor(admin), { name: 'mine', auto_init: true });
    // The last administrator cannot be deleted: the purge rolls back, and no file was touched.
    await expect(host.accounts.deleteUser(SYSTEM, admin, { purge: true })).rejects.toThrow(/last admin/);
    expect(await host.git.exists({ owner: 'root', name: 'mine' })).toBe(true);
    expect((await host.repos.resolve(SYSTEM, 'root', 'mine')).repo.name).toBe('mine');
    expect(await host.repoStorage.pending()).toEqual([]);
  });

  it('derives the bookkeeping of an interrupted push from the refs', async () => {
    const access = await host.repos.create(userActor(alice), { name: 'pushed' });
    expect(access.repo.is_empty).toBe(1);
    await host.repos.beginPush(access);
    // The refs moved (a branch other than the default), then the process died before recording it.
    await host.git.commitFiles(key('pushed'), { branch: 'feature', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });

    const report = await host.repoStorage.reconcile();
    expect(report.resynced).toEqual([key('pushed')]);
    const after = (await host.repos.resolve(SYSTEM, 'alice', 'pushed')).repo;
    expect(after.is_empty).toBe(0);
    expect(after.default_branch).toBe('feature');
    expect(after.size).toBe(await host.git.size(key('pushed')));
    expect(await host.repoStorage.pending()).toEqual([]);
  });

  it('reports storage without rows and rows without storage', async () => {
    await host.repos.create(userActor(alice), { name: 'lost', auto_init: true });
    await host.git.remove(key('lost'));
    await host.git.create(key('stray'), { objectFormat: 'sha1', defaultBranch: 'main' });
    expect(await host.repoStorage.check()).toEqual({ unadopted: [key('stray')], missing: [key('lost')] });
  });

  it('adopts unclaimed storage as a private repository, and deletes it, for site administrators only', async () => {
    await host.git.create(key('stray'), { objectFormat: 'sha256', defaultBranch: 'trunk' });
    await host.git.commitFiles(key('stray'), { branch: 'trunk', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });
    await expect(host.repoStorage.adopt(userActor(alice), 'alice', 'stray')).rejects.toBeInstanceOf(ForbiddenError);
    expect((await host.repoStorage.listUnadopted(SYSTEM)).items).toEqual(['alice/stray']);

    await host.repoStorage.adopt(SYSTEM, 'alice', 'stray');
    const adopted = (await host.repos.resolve(SYSTEM, 'alice', 'stray')).repo;
    expect(adopted).toMatchObject({ is_private: 1, is_empty: 0, default_branch: 'trunk', object_format_name: 'sha256' });
    expect((await host.users.findById(alice.id))!.num_repos).toBe(1);
    await expect(host.repoStorage.adopt(SYSTEM, 'alice', 'stray')).rejects.toBeInstanceOf(NotFoundError);

    await host.git.create(key('junk'), { objectFormat: 'sha1', defaultBranch: 'main' });
    await host.repoStorage.deleteUnadopted(SYSTEM, 'alice', 'junk');
    expect(await host.git.exists(key('junk'))).toBe(false);
    await expect(host.repoStorage.deleteUnadopted(SYSTEM, 'alice', 'stray')).rejects.toBeInstanceOf(NotFoundError);
    await expect(host.repoStorage.deleteUnadopted(SYSTEM, 'nobody', 'junk')).rejects.toBeInstanceOf(NotFoundError);
  });
});
