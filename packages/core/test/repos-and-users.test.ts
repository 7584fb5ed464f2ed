import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SYSTEM,
  userActor,
  isRepoHostError,
  ConflictError,
  ValidationError,
  ForbiddenError,
  NotFoundError,
  type RepoHost,
  type Storage,
  type User,
} from '@repohost/core';
import { TEST_DB, createUser, openTestHost, type TestHost } from '@repohost/test-support';

describe('repositories and users in core', () => {
  let t: TestHost;
  let host: RepoHost;
  let alice: User;

  beforeEach(async () => {
    t = await openTestHost();
    host = t.host;
    alice = await createUser(host, 'alice', { admin: true });
  });
  afterEach(async () => t.cleanup());

  it('creates git storage and the row together, counting the owner\'s repositories', async () => {
    const created = await host.repos.create(userActor(alice), { name: 'Demo', auto_init: true, default_branch: 'trunk' });
    expect(created.repo.is_empty).toBe(0);
    expect(await host.git.exists({ owner: 'alice', name: 'demo' })).toBe(true);
    expect((await host.git.readRefs({ owner: 'alice', name: 'demo' }, ['refs/heads/trunk'])).size).toBe(1);
    expect((await host.users.findById(alice.id))!.num_repos).toBe(1);
  });

  it('removes the git storage again when the database write fails', async () => {
    // The owner row vanishes between the checks and the insert: the foreign key makes the insert fail.
    const ghost: User = { ...alice, id: 9999, lower_name: 'alice' };
    const gitCreate = vi.spyOn(host.git, 'create');
    const commit = vi.spyOn(host.git, 'commitFiles');
    const error = await host.repos.create(userActor(ghost), { name: 'orphan', auto_init: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // It failed in the database, after the storage and its first commit had been written…
    expect(error).toBeInstanceOf(Error);
    expect(isRepoHostError(error)).toBe(false);
    expect(String((error as Error).message)).toMatch(/FOREIGN KEY|foreign key/);
    expect(gitCreate).toHaveBeenCalledWith({ owner: 'alice', name: 'orphan' }, expect.anything());
    expect(commit).toHaveBeenCalledTimes(1);
    // …and the rollback removed that storage again.
    expect(await host.git.exists({ owner: 'alice', name: 'orphan' })).toBe(false);
    await expect(host.repos.resolve(SYSTEM, 'alice', 'orphan')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a name clash in any case, leaving the first repository intact', async () => {
    await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
    await expect(host.repos.create(userActor(alice), { name: 'DEMO' })).rejects.toBeInstanceOf(ConflictError);
    expect(await host.git.isEmpty({ owner: 'alice', name: 'demo' })).toBe(false);
    expect((await host.users.findById(alice.id))!.num_repos).toBe(1);
  });

  it('refuses to create over leftover git storage without touching it', async () => {
    await host.git.create({ owner: 'alice', name: 'leftover' }, { objectFormat: 'sha1', defaultBranch: 'main' });
    await expect(host.repos.create(userActor(alice), { name: 'leftover' })).rejects.toBeInstanceOf(ConflictError);
    expect(await host.git.exists({ owner: 'alice', name: 'leftover' })).toBe(true);
  });

  it('creates sha256 repositories', async () => {
    const { repo } = await host.repos.create(userActor(alice), { name: 'modern', auto_init: true, object_format_name: 'sha256' });
    expect(repo.object_format_name).toBe('sha256');
    const refs = await host.git.readRefs({ owner: 'alice', name: 'modern' }, ['refs/heads/main']);
    expect(refs.get('refs/heads/main')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('deletes a repository with its storage and keeps the counter true', async () => {
    await host.repos.create(userActor(alice), { name: 'gone', auto_init: true });
    await host.repos.delete(userActor(alice), await host.repos.resolve(userActor(alice), 'alice', 'gone'));
    expect(await host.git.exists({ owner: 'alice', name: 'gone' })).toBe(false);
    expect((await host.users.findById(alice.id))!.num_repos).toBe(0);
  });

  it('refuses to delete a user who owns repositories unless purged', async () => {
    const bob = await createUser(host, 'bob');
    await host.repos.create(userActor(bob), { name: 'keep', auto_init: true });
    await expect(host.accounts.deleteUser(SYSTEM, bob)).rejects.toBeInstanceOf(ConflictError);
    expect(await host.git.exists({ owner: 'bob', name: 'keep' })).toBe(true);
    await host.accounts.deleteUser(SYSTEM, bob, { purge: true });
    expect(await host.git.exists({ owner: 'bob', name: 'keep' })).toBe(false);
    expect(await host.users.findByName('bob')).toBeUndefined();
  });

  it('puts repositories back when a purge is refused (last admin)', async () => {
    await host.repos.create(userActor(alice), { name: 'precious', auto_init: true });
    await expect(host.accounts.deleteUser(SYSTEM, alice, { purge: true })).rejects.toBeInstanceOf(ValidationError);
    expect(await host.git.exists({ owner: 'alice', name: 'precious' })).toBe(true);
    expect(await host.git.isEmpty({ owner: 'alice', name: 'precious' })).toBe(false);
    expect((await host.repos.resolve(SYSTEM, 'alice', 'precious')).repo.name).toBe('precious');
  });

  it('lets only site administrators create users', async () => {
    const bob = await createUser(host, 'bob');
    await expect(host.users.create(userActor(bob), { username: 'eve', email: 'eve@example.com', password: 'secret-pass-1' })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(host.users.create(userActor(alice), { username: 'Bob', email: 'x@example.com', password: 'secret-pass-1' })).rejects.toThrow(/user already exists/);
    await expect(host.users.create(userActor(alice), { username: 'eve', email: 'BOB@example.com', password: 'secret-pass-1' })).rejects.toThrow(/e-mail already in use/);
    await expect(host.users.create(userActor(alice), { username: 'eve', email: 'eve@example.com', password: 'short' })).rejects.toThrow(/password/);
  });

  it('never lets a read observe another write\'s uncommitted rows', async () => {
    const { db } = (host as unknown as { storage: Storage }).storage;
    let read: Promise<unknown> | undefined;
    let settledInside: unknown = 'pending';
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('repository')
        .values({ owner_id: alice.id, lower_name: 'uncommitted', name: 'uncommitted', default_branch: 'main', created_unix: 1, updated_unix: 1 })
        .execute();
      read = host.repos.resolve(SYSTEM, 'alice', 'uncommitted').then(
        (r) => (settledInside = r),
        (e: unknown) => (settledInside = e),
      );
      if (TEST_DB === 'sqlite') {
        // One connection: the read waits for the transaction instead of reading through it.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(settledInside).toBe('pending');
      } else {
        // Another connection: the read answers while the transaction is open, without the uncommitted row.
        await read;
        expect(settledInside).toBeInstanceOf(NotFoundError);
      }
    });
    const settled = await read;
    // On SQLite the waiting read ran after the commit, and saw the row then.
    if (TEST_DB === 'sqlite') expect((settled as { repo: { name: string } }).repo.name).toBe('uncommitted');
    expect((await host.repos.resolve(SYSTEM, 'alice', 'uncommitted')).repo.name).toBe('uncommitted');
  });

  it('stores tokens only as salted hashes', async () => {
    const { value } = await host.tokens.create(SYSTEM, alice, { name: 'x', scopes: ['all'] });
    const { items } = await host.tokens.list(SYSTEM, alice);
    expect(items).toHaveLength(1);
    for (const field of Object.values(items[0]!)) expect(String(field)).not.toContain(value);
    expect((await host.tokens.authenticate(value))?.user.id).toBe(alice.id);
    expect(await host.tokens.authenticate(value.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).toBeNull();
  });
});
