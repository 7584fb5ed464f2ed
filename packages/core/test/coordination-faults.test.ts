/**
 * Coordination of several processes through the database and the shared repository folder, where the database or
 * another process gets in the way: a named lock waits through contention (SQLite busy, PostgreSQL serialization
 * failures and deadlocks) whatever wraps it; start-up reconcile leaves the scratch folders of live changes alone;
 * git intents take their lease from `[repohost] LEASE_SECONDS` as locks do.
 */
import { mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  DatabaseLocks,
  DatabaseUnavailableError,
  RepoHost,
  SYSTEM,
  UnavailableError,
  isContention,
  openStorage,
  repoStorageLock,
  userActor,
  type Storage,
} from '@repohost/core';
import { TEST_DB, createUser, openTestHost, type TestHost } from '@repohost/test-support';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('isContention', () => {
  it('knows the drivers\' contention codes, bare or wrapped, and nothing else', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', '40001', '40P01']) {
      const driver = Object.assign(new Error('lost'), { code });
      expect(isContention(driver)).toBe(true);
      expect(isContention(new DatabaseUnavailableError(driver))).toBe(true);
      expect(isContention(new Error('outer', { cause: new Error('middle', { cause: driver }) }))).toBe(true);
    }
    for (const code of ['57P01', '23505', 'SQLITE_CONSTRAINT_UNIQUE', 'ECONNREFUSED', 40001]) {
      expect(isContention(Object.assign(new Error('other'), { code }))).toBe(false);
      expect(isContention(new DatabaseUnavailableError(Object.assign(new Error('other'), { code })))).toBe(false);
    }
    expect(isContention(new UnavailableError('busy', 1))).toBe(false);
    expect(isContention(undefined)).toBe(false);
    expect(isContention('SQLITE_BUSY')).toBe(false);
    const cycle: Error & { cause?: unknown } = new Error('cycle');
    cycle.cause = cycle;
    expect(isContention(cycle)).toBe(false);
  });
});

describe('coordination faults', () => {
  let t: TestHost;
  let a: RepoHost;
  let raw: Storage;

  beforeEach(async () => {
    // SQLite: a database file another connection can lock; PostgreSQL: one schema.
    t = await openTestHost({ database: { PATH: 'shared.db' } });
    a = t.host;
    raw = await openStorage(a.settings.database);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await raw?.close();
    await t?.cleanup();
  });

  describe('a default-branch change', () => {
    it('checks the branch holding the storage lock: one deleted while the change waited is not made the default', async () => {
      const alice = await createUser(a, 'alice');
      const access = await a.repos.create(userActor(alice), { name: 'heads', auto_init: true });
      const storage = { owner: 'alice', name: 'heads' };
      await a.git.commitFiles(storage, { branch: 'dev', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });
      // Another change of the repository's storage is running: the edit waits for its lock.
      const locks = a.service(DatabaseLocks);
      const other = await locks.acquire(repoStorageLock(access.repo.id));
      const waiting = vi.spyOn(locks, 'withLock');
      const edit = a.repoSettings.edit(userActor(alice), access, { default_branch: 'dev', description: 'edited' });
      await vi.waitFor(() => expect(waiting).toHaveBeenCalledWith(repoStorageLock(access.repo.id), expect.any(Function), expect.anything()), { timeout: 30_000 });
      // Meanwhile the branch goes, as a push deleting it would (pushes take no storage lock; it is not the default yet).
      const devId = (await a.git.readRefs(storage, ['refs/heads/dev'])).get('refs/heads/dev')!;
      await a.git.updateRefs(storage, [{ ref: 'refs/heads/dev', oldId: devId, newId: '0'.repeat(devId.length) }]);
      await other.release();

      const edited = await edit;
      expect(edited.repo).toMatchObject({ default_branch: 'main', description: 'edited' });
      const row = await a.repos.resolve(SYSTEM, 'alice', 'heads');
      expect(row.repo).toMatchObject({ default_branch: 'main', description: 'edited' });
      expect((await a.git.describe(storage)).headBranch).toBe('main');
      expect(await a.repoStorage.pending()).toEqual([]);
      expect(await locks.holderOf(repoStorageLock(access.repo.id))).toBeUndefined();
    });

    it('and a branch delete through the API waits for the same lock: queued behind the change, it finds the branch the default and is refused', async () => {
      const alice = await createUser(a, 'alice');
      const access = await a.repos.create(userActor(alice), { name: 'queued', auto_init: true });
      const storage = { owner: 'alice', name: 'queued' };
      await a.git.commitFiles(storage, { branch: 'dev', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });
      const locks = a.service(DatabaseLocks);
      const other = await locks.acquire(repoStorageLock(access.repo.id));
      const waiting = vi.spyOn(locks, 'withLock');
      const edit = a.repoSettings.edit(userActor(alice), access, { default_branch: 'dev' });
      await vi.waitFor(() => expect(waiting).toHaveBeenCalledTimes(1), { timeout: 30_000 });
      // Asked for with the row as it was (main the default): the check is made again holding the lock.
      const deletion = a.branches.delete(userActor(alice), access, 'dev');
      await vi.waitFor(() => expect(waiting).toHaveBeenCalledTimes(2), { timeout: 30_000 });
      await other.release();
      expect((await edit).repo.default_branch).toBe('dev');
      await expect(deletion).rejects.toMatchObject({ message: 'can not delete default branch' });
      expect((await a.git.readRefs(storage, ['refs/heads/dev'])).has('refs/heads/dev')).toBe(true);
      expect((await a.git.describe(storage)).headBranch).toBe('dev');
    });

    it('is still made when the branch is there (and refused for a row changed meanwhile)', async () => {
      const alice = await createUser(a, 'alice');
      const access = await a.repos.create(userActor(alice), { name: 'heads2', auto_init: true });
      const storage = { owner: 'alice', name: 'heads2' };
      await a.git.commitFiles(storage, { branch: 'dev', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });
      expect((await a.repoSettings.edit(userActor(alice), access, { default_branch: 'dev' })).repo.default_branch).toBe('dev');
      expect((await a.git.describe(storage)).headBranch).toBe('dev');
      // `access` still says `main`: the row moved since, so the change is refused before git is touched.
      await a.git.commitFiles(storage, { branch: 'third', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'g', content: 'y' }] });
      await expect(a.repoSettings.edit(userActor(alice), access, { default_branch: 'third' })).rejects.toBeInstanceOf(ConflictError);
      expect((await a.git.describe(storage)).headBranch).toBe('dev');
      // A branch that never existed leaves the default branch as it is (Forgejo), other fields change.
      const fresh = await a.repos.resolve(SYSTEM, 'alice', 'heads2');
      const edited = await a.repoSettings.edit(userActor(alice), fresh, { default_branch: 'nope', website: 'https://example.com' });
      expect(edited.repo).toMatchObject({ default_branch: 'dev', website: 'https://example.com' });
      expect((await a.git.describe(storage)).headBranch).toBe('dev');
    });
  });

  describe('the package upload spool', () => {
    it('removes at start the uploads a crash cut off, and keeps one another process is receiving', async () => {
      const spool = path.join(a.settings.server.APP_DATA_PATH, 'tmp', 'package-upload');
      await mkdir(spool, { recursive: true });
      const live = path.join(spool, 'go-1-0a1b2c3d');
      const dead = path.join(spool, 'pypi-2-4e5f6a7b');
      await writeFile(live, 'arriving');
      await writeFile(dead, 'cut off');
      const old = new Date(Date.now() - 2 * 3600_000);
      await utimes(dead, old, old);
      const b = await RepoHost.open({ settings: a.settings });
      try {
        expect(await readdir(spool)).toEqual(['go-1-0a1b2c3d']);
        expect(await readFile(live, 'utf8')).toBe('arriving');
      } finally {
        await b.close();
      }
    });
  });

  describe('the storage\'s trash', () => {
    it('keeps what a live change of another process uses at start-up and in sweeps; removes old leftovers', async () => {
      const trash = path.join(a.settings.repository.ROOT, '.trash');
      // A scratch folder another process is writing now, and what a removal that died two hours ago left.
      const live = path.join(trash, 'contents-0a1b2c3d4e5f');
      const dead = path.join(trash, 'alice-gone-0a1b2c3d4e5f');
      const old = new Date(Date.now() - 2 * 3600_000);
      await mkdir(live, { recursive: true });
      await writeFile(path.join(live, 'index'), 'in use');
      await mkdir(path.join(dead, 'objects'), { recursive: true });
      await writeFile(path.join(dead, 'HEAD'), 'ref: refs/heads/main\n');
      await utimes(dead, old, old);

      const b = await RepoHost.open({ settings: a.settings });
      try {
        expect((await readdir(trash)).sort()).toEqual(['contents-0a1b2c3d4e5f']);
        expect(await readFile(path.join(live, 'index'), 'utf8')).toBe('in use');

        // The sweep of any process does the same, every minute.
        await mkdir(dead, { recursive: true });
        await utimes(dead, old, old);
        await b.repoStorage.sweep();
        expect((await readdir(trash)).sort()).toEqual(['contents-0a1b2c3d4e5f']);
        // Once the live change's folder is as old (its process died), it goes too.
        await utimes(live, old, old);
        await a.repoStorage.sweep();
        expect(await readdir(trash)).toEqual([]);
      } finally {
        await b.close();
      }
    });
  });

  describe('leases', () => {
    it('of git intents and of locks are `[repohost] LEASE_SECONDS` long, and intents are renewed within one', async () => {
      const short = await openTestHost({ repohost: { LEASE_SECONDS: 6 } });
      try {
        const host = short.host;
        const alice = await createUser(host, 'alice');
        // A creation that stops once its storage exists: its intent is held, and renewed, meanwhile.
        const size = vi.spyOn(host.git, 'size').mockImplementationOnce(() => new Promise<never>(() => {}));
        void host.repos.create(userActor(alice), { name: 'leased', auto_init: true }).catch(() => undefined);
        await vi.waitFor(() => expect(size).toHaveBeenCalled(), { timeout: 30_000 });
        const started = Math.floor(Date.now() / 1000);
        const [intent] = await host.repoStorage.pending();
        expect(intent).toMatchObject({ op: 'create', repo_name: 'leased', owner: host.service(DatabaseLocks).owner });
        expect(Number(intent!.lease_until_unix) - started).toBeGreaterThanOrEqual(4);
        expect(Number(intent!.lease_until_unix) - started).toBeLessThanOrEqual(6);

        const lock = await host.service(DatabaseLocks).acquire('leased');
        const holder = await host.service(DatabaseLocks).holderOf('leased');
        expect(holder!.leaseUntilUnix - started).toBeGreaterThanOrEqual(5);
        expect(holder!.leaseUntilUnix - started).toBeLessThanOrEqual(7);
        await lock.release();

        // Renewed every third of the lease: it never runs out while the change runs.
        await vi.waitFor(
          async () => {
            const [renewed] = await host.repoStorage.pending();
            expect(Number(renewed!.lease_until_unix)).toBeGreaterThan(Number(intent!.lease_until_unix) + 1);
          },
          { timeout: 30_000, interval: 250 },
        );
      } finally {
        vi.restoreAllMocks();
        await short.cleanup();
      }
    });
  });

  describe.runIf(TEST_DB === 'sqlite')('a named lock on SQLite', () => {
    it('waits while another process holds the write lock longer than the driver waits, then takes the lock', async () => {
      // Another process's write transaction: longer than the driver's own wait for the write lock (5 s at least),
      // after which it answers a 503 wrapping SQLITE_BUSY.
      const release = pause(6500);
      const holding = raw.db.transaction().execute(async (trx) => {
        await sql`insert into named_lock (name, owner, token, lease_until_unix, acquired_unix) values ('other', 'x', 'x', 0, 0)`.execute(trx);
        await release;
      });
      await pause(200);
      const lock = await a.service(DatabaseLocks).acquire('contended', { waitMs: 40_000 });
      await holding;
      expect(await a.service(DatabaseLocks).holderOf('contended')).toMatchObject({ owner: a.service(DatabaseLocks).owner });
      await lock.release();
      expect(await a.service(DatabaseLocks).holderOf('contended')).toBeUndefined();
    });
  });

  describe.runIf(TEST_DB === 'postgres')('a named lock on PostgreSQL', () => {
    for (const [code, what] of [
      ['serialization_failure', '40001'],
      ['deadlock_detected', '40P01'],
    ] as const) {
      it(`is tried again after a ${what} (which the pool wraps in a 503), and taken`, async () => {
        // The first two attempts to write the lock row fail as a serialization failure or deadlock would.
        await sql.raw(`create sequence lock_failures`).execute(raw.db);
        await sql
          .raw(
            `create function fail_lock_twice() returns trigger language plpgsql as $$
             begin
               if nextval('lock_failures') <= 2 then raise exception 'simulated contention' using errcode = '${code}'; end if;
               return new;
             end $$`,
          )
          .execute(raw.db);
        await sql.raw(`create trigger fail_lock_twice before insert on named_lock for each row execute function fail_lock_twice()`).execute(raw.db);

        const locks = a.service(DatabaseLocks);
        const lock = await locks.acquire('contended', { waitMs: 30_000 });
        expect(await locks.holderOf('contended')).toMatchObject({ owner: locks.owner });
        const { rows } = await sql<{ last_value: number }>`select last_value from lock_failures`.execute(raw.db);
        expect(Number(rows[0]!.last_value)).toBe(3);
        await lock.release();
        expect(await locks.holderOf('contended')).toBeUndefined();
      });
    }

    it('a serialization failure or deadlock is a 503 that leaves the connection in the pool', async () => {
      const one = await openStorage({ ...a.settings.database, MAX_OPEN_CONNS: 1 });
      try {
        const pid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(one.db)).rows[0]!.pid;
        const before = await pid();
        for (const code of ['40001', '40P01']) {
          const failure = sql.raw(`do $$ begin raise exception 'simulated' using errcode = '${code}'; end $$`).execute(one.db);
          await expect(failure).rejects.toBeInstanceOf(DatabaseUnavailableError);
          await expect(failure.catch((error: unknown) => isContention(error))).resolves.toBe(true);
        }
        // The same session answers: the transaction ended, not the connection.
        expect(await pid()).toBe(before);
      } finally {
        await one.close();
      }
    });

    it('does not retry what is not contention (a refused write fails at once)', async () => {
      await sql
        .raw(
          `create function refuse_lock() returns trigger language plpgsql as $$
           begin raise exception 'refused' using errcode = 'check_violation'; end $$`,
        )
        .execute(raw.db);
      await sql.raw(`create trigger refuse_lock before insert on named_lock for each row execute function refuse_lock()`).execute(raw.db);
      await expect(a.service(DatabaseLocks).acquire('refused', { waitMs: 30_000 })).rejects.toMatchObject({ code: '23514' });
    });
  });
});
