/**
 * Renaming an account moves its folder of repositories and renames its row, in agreement: an `owner-rename`
 * intent is recorded before the move and deleted by the transaction that renames the row, so a crash anywhere is
 * repaired by reconciliation (what opening a host runs), and a failing transaction is undone at once. An
 * interruption is a git step that never returns, as if the process had died there.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SYSTEM, userActor, type RepoHost, type RepoKey, type User } from '@repohost/core';
import { UserAdminStore } from '@repohost/core/internal';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

const never = () => new Promise<never>(() => {});
const key = (owner: string, name: string): RepoKey => ({ owner, name });

describe('account renames: git storage and database consistency', () => {
  let t: TestHost;
  let host: RepoHost;
  let root: User;
  let alice: User;

  beforeEach(async () => {
    t = await openTestHost();
    host = t.host;
    root = await createUser(host, 'root', { admin: true });
    alice = await createUser(host, 'alice');
    await host.repos.create(userActor(alice), { name: 'one', auto_init: true });
    await host.repos.create(userActor(alice), { name: 'two' });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  const admin = () => userActor(root);

  /** Makes the next `git.renameOwner` move the folder and then hang, as if the process died right after it. */
  function dieAfterNextMove() {
    const real = host.git.renameOwner.bind(host.git);
    return vi.spyOn(host.git, 'renameOwner').mockImplementationOnce(async (from, to) => {
      await real(from, to);
      return never();
    });
  }

  it('moves every repository with the account and leaves no intent behind; events say what happened', async () => {
    const renamed: string[] = [];
    host.events.on('user.renamed', (e) => void renamed.push(`${e.payload.oldName}->${e.payload.user.name}`));
    const user = await host.accounts.renameUser(admin(), alice, { new_username: 'Alicia' });
    expect(user).toMatchObject({ name: 'Alicia', lower_name: 'alicia' });
    expect(await host.git.exists(key('alicia', 'one'))).toBe(true);
    expect(await host.git.exists(key('alicia', 'two'))).toBe(true);
    expect(await host.git.exists(key('alice', 'one'))).toBe(false);
    expect((await host.repos.resolve(SYSTEM, 'alicia', 'one')).owner.id).toBe(alice.id);
    expect(await host.git.isEmpty(key('alicia', 'one'))).toBe(false);
    expect(await host.repoStorage.pending()).toEqual([]);
    expect(await host.repoStorage.check()).toEqual({ unadopted: [], missing: [] });
    await host.events.idle();
    expect(renamed).toEqual(['alice->Alicia']);
  });

  it('moves the folder back when a rename died after moving it, before the row changed', async () => {
    const move = dieAfterNextMove();
    void host.accounts.renameUser(admin(), alice, { new_username: 'bob' });
    await vi.waitFor(async () => {
      expect(move).toHaveBeenCalled();
      expect(await host.git.exists(key('bob', 'one'))).toBe(true);
    });
    expect(await host.repoStorage.pending()).toEqual([expect.objectContaining({ op: 'owner-rename', owner_name: 'bob', repo_id: alice.id })]);
    expect((await host.users.findById(alice.id))!.name).toBe('alice');

    const report = await host.repoStorage.reconcile();
    expect(report.undoneOwnerRenames).toEqual(['alice']);
    expect(await host.git.exists(key('alice', 'one'))).toBe(true);
    expect(await host.git.exists(key('alice', 'two'))).toBe(true);
    expect(await host.git.exists(key('bob', 'one'))).toBe(false);
    expect(await host.repoStorage.pending()).toEqual([]);
    expect(await host.repoStorage.check()).toEqual({ unadopted: [], missing: [] });
    // The rename can be done again.
    expect((await host.accounts.renameUser(admin(), (await host.users.findById(alice.id))!, { new_username: 'bob' })).name).toBe('bob');
    expect(await host.git.exists(key('bob', 'one'))).toBe(true);
  });

  it('leaves the folder alone when a rename died before moving it', async () => {
    const move = vi.spyOn(host.git, 'renameOwner').mockImplementationOnce(never);
    void host.accounts.renameUser(admin(), alice, { new_username: 'carol' });
    await vi.waitFor(() => expect(move).toHaveBeenCalled());
    const report = await host.repoStorage.reconcile();
    expect(report.undoneOwnerRenames).toEqual([]);
    expect(await host.git.exists(key('alice', 'one'))).toBe(true);
    expect(await host.repoStorage.pending()).toEqual([]);
  });

  it('repairs an interrupted account rename before an interrupted push of one of its repositories', async () => {
    // A push in flight left its `sync` intent (recorded first), then the rename died after moving the folder.
    await host.repos.beginPush(await host.repos.resolve(SYSTEM, 'alice', 'one'));
    dieAfterNextMove();
    void host.accounts.renameUser(admin(), alice, { new_username: 'dave' });
    await vi.waitFor(async () => expect(await host.git.exists(key('dave', 'one'))).toBe(true));
    const report = await host.repoStorage.reconcile();
    expect(report.undoneOwnerRenames).toEqual(['alice']);
    expect(report.resynced).toEqual([key('alice', 'one')]);
    expect(await host.repoStorage.pending()).toEqual([]);
  });

  it('puts the folder back at once when the row change fails', async () => {
    vi.spyOn(UserAdminStore.prototype, 'update').mockRejectedValueOnce(new Error('database went away'));
    await expect(host.accounts.renameUser(admin(), alice, { new_username: 'erin' })).rejects.toThrow('database went away');
    expect(await host.git.exists(key('alice', 'one'))).toBe(true);
    expect(await host.git.exists(key('erin', 'one'))).toBe(false);
    expect(await host.repoStorage.pending()).toEqual([]);
    expect((await host.users.findById(alice.id))!.name).toBe('alice');
  });

  it('an account without repositories renames without storage; a case-only rename moves nothing', async () => {
    const frank = await createUser(host, 'frank');
    expect((await host.accounts.renameUser(admin(), frank, { new_username: 'franz' })).name).toBe('franz');
    const move = vi.spyOn(host.git, 'renameOwner');
    expect((await host.accounts.renameUser(admin(), alice, { new_username: 'ALICE' })).name).toBe('ALICE');
    expect(move).not.toHaveBeenCalled();
    expect(await host.git.exists(key('alice', 'one'))).toBe(true);
    expect(await host.repoStorage.pending()).toEqual([]);
  });
});
