/**
 * Several processes on one database coordinate through it alone. Two (or three) RepoHost instances opened on the same
 * database and repository folder stand in for the processes: git intents carry an owner and a lease, so a change in
 * progress is left alone and an interrupted one is repaired exactly once; named locks (`DatabaseLocks`) serialize
 * storage changes of a repository and forks into an account across processes, and are overtaken when their holder
 * died; the last owner of an organization stays when two processes remove the two last owners at once.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ConflictError,
  DatabaseLocks,
  LockTimeoutError,
  RepoHost,
  SYSTEM,
  ValidationError,
  openStorage,
  repoStorageLock,
  userActor,
  type Storage,
  type User,
} from '@repohost/core';
import { TEST_DB, createUser, openTestHost, type TestHost } from '@repohost/test-support';

const never = () => new Promise<never>(() => {});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nowUnix = () => Math.floor(Date.now() / 1000);
const key = (owner: string, name: string) => ({ owner, name });

/** The pid of a process that has exited (a lease owner naming it is gone). */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (!pid) throw new Error('no child process');
  return pid;
}

/** Outcomes of promises run together: what resolved and what each rejection was. */
async function outcomes<T>(promises: Promise<T>[]): Promise<{ fulfilled: T[]; rejected: unknown[] }> {
  const settled = await Promise.allSettled(promises);
  return {
    fulfilled: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
    rejected: settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : [])),
  };
}

describe('coordination of processes through the database', () => {
  let t: TestHost;
  /** Process A: the test host. */
  let a: RepoHost;
  let raw: Storage;
  const others: RepoHost[] = [];

  beforeEach(async () => {
    // SQLite: one database file shared by the hosts; PostgreSQL: one schema.
    t = await openTestHost({ database: { PATH: 'shared.db' } });
    a = t.host;
    raw = await openStorage(a.settings.database);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const other of others.splice(0)) await other.close();
    await raw?.close();
    await t?.cleanup();
  });

  /** Another process on the same database and repositories; it reconciles at start unless told not to. */
  async function open(options: { reconcile?: boolean } = {}): Promise<RepoHost> {
    const host = await RepoHost.open({ settings: a.settings, ...options });
    others.push(host);
    return host;
  }

  /** Starts a creation on A that stops after its storage exists, before its row: a change in progress. */
  async function creationInProgress(owner: User, name: string) {
    const size = vi.spyOn(a.git, 'size').mockImplementationOnce(never);
    void a.repos.create(userActor(owner), { name, auto_init: true }).catch(() => undefined);
    await vi.waitFor(() => expect(size).toHaveBeenCalled(), { timeout: 30_000 });
    const intent = (await a.repoStorage.pending()).find((i) => i.repo_name === name);
    expect(intent).toBeDefined();
    return intent!;
  }

  describe('git intents', () => {
    it('a change in progress on A is left alone by B at start, by its sweep and by the cron task', async () => {
      const alice = await createUser(a, 'alice');
      const intent = await creationInProgress(alice, 'busy');
      expect(intent).toMatchObject({ op: 'create', owner_name: 'alice', repo_name: 'busy', owner: a.service(DatabaseLocks).owner });
      expect(Number(intent.lease_until_unix)).toBeGreaterThanOrEqual(nowUnix());

      const b = await open();
      expect(b.reconciled.abandonedCreates).toEqual([]);
      expect((await b.repoStorage.sweep()).abandonedCreates).toEqual([]);
      // By hand, as `/admin/cron` runs it (a claim another connection's write delays is tried again).
      await vi.waitFor(
        async () => {
          await b.cron.run(SYSTEM, 'repair_git_intents');
          await b.cron.idle();
          expect(Number((await b.cron.state('repair_git_intents'))?.exec_times)).toBeGreaterThan(0);
        },
        { timeout: 30_000, interval: 200 },
      );
      expect(await b.cron.state('repair_git_intents')).toMatchObject({ last_error: '', last_message: 'nothing to repair' });
      // Nothing of the change was touched: its storage and its intent are there, still A's.
      expect(await b.git.exists(key('alice', 'busy'))).toBe(true);
      expect(await b.repoStorage.pending()).toEqual([expect.objectContaining({ id: intent.id, owner: intent.owner })]);
    });

    it('once the lease of a dead change expired, one of two sweeping processes repairs it, once', async () => {
      const alice = await createUser(a, 'alice');
      const intent = await creationInProgress(alice, 'burst');
      // A dies: nothing renews the lease any more, and it runs out.
      await a.close();
      await raw.db.updateTable('repo_git_intent').set({ lease_until_unix: nowUnix() - 5 }).where('id', '=', intent.id).execute();

      const b = await open({ reconcile: false });
      const c = await open({ reconcile: false });
      const reports = await Promise.all([b.repoStorage.sweep(), c.repoStorage.sweep(), b.repoStorage.sweep()]);
      expect(reports.flatMap((r) => r.abandonedCreates)).toEqual([key('alice', 'burst')]);
      expect(await b.git.exists(key('alice', 'burst'))).toBe(false);
      expect(await b.repoStorage.pending()).toEqual([]);
      // The name is free again.
      const bob = await b.users.findById(alice.id);
      expect((await b.repos.create(userActor(bob!), { name: 'burst' })).repo.name).toBe('burst');
      expect(await c.repoStorage.check()).toEqual({ unadopted: [], missing: [] });
    });

    it('a change whose process on this machine is gone is repaired at the next start, without waiting for its lease', async () => {
      const alice = await createUser(a, 'alice');
      const intent = await creationInProgress(alice, 'orphan');
      // The same change, as if a process that has exited had made it (its lease still runs).
      const owner = intent.owner.replace(/:\d+:([0-9a-f]+)$/, `:${deadPid()}:$1`);
      expect(owner).not.toBe(intent.owner);
      await raw.db.updateTable('repo_git_intent').set({ owner }).where('id', '=', intent.id).execute();

      const b = await open();
      expect(b.reconciled.abandonedCreates).toEqual([key('alice', 'orphan')]);
      expect(await b.git.exists(key('alice', 'orphan'))).toBe(false);
      expect(await b.repoStorage.pending()).toEqual([]);
    });

    it('intents written before leases (no owner) count as interrupted; a live intent on the same storage keeps it', async () => {
      await createUser(a, 'alice');
      const b = await open({ reconcile: false });
      await a.git.create(key('alice', 'old'), { objectFormat: 'sha1', defaultBranch: 'main' });
      await a.git.create(key('alice', 'shared'), { objectFormat: 'sha1', defaultBranch: 'main' });
      const legacy = { op: 'create', owner_name: 'alice', repo_id: 0, created_unix: 1, owner: '', lease_until_unix: 0 };
      await raw.db.insertInto('repo_git_intent').values({ ...legacy, repo_name: 'old' }).execute();
      await raw.db.insertInto('repo_git_intent').values({ ...legacy, repo_name: 'shared' }).execute();
      // Another creation of `shared` is in progress on A (its storage is what the old intent names now).
      await raw.db
        .insertInto('repo_git_intent')
        .values({ ...legacy, repo_name: 'shared', owner: a.service(DatabaseLocks).owner, lease_until_unix: nowUnix() + 600 })
        .execute();

      const report = await b.repoStorage.sweep();
      expect(report.abandonedCreates).toEqual([key('alice', 'old')]);
      expect(await b.git.exists(key('alice', 'old'))).toBe(false);
      expect(await b.git.exists(key('alice', 'shared'))).toBe(true);
      // Only the live one is left.
      expect((await b.repoStorage.pending()).map((i) => [i.repo_name, i.owner])).toEqual([['shared', a.service(DatabaseLocks).owner]]);
    });
  });

  describe('named locks', () => {
    it('a lock A holds makes B wait; B takes it once A releases it', async () => {
      const b = await open({ reconcile: false });
      const lockA = await a.service(DatabaseLocks).acquire('test:one');
      expect(await b.service(DatabaseLocks).holderOf('test:one')).toMatchObject({ owner: a.service(DatabaseLocks).owner });
      // Not waiting: refused at once, as a busy resource (503 with Retry-After).
      const refused = b.service(DatabaseLocks).acquire('test:one', { waitMs: 0, busyMessage: 'busy here' });
      await expect(refused).rejects.toBeInstanceOf(LockTimeoutError);
      await expect(refused).rejects.toMatchObject({ kind: 'unavailable', message: 'busy here', retryAfterSeconds: 5 });

      let acquired = false;
      const waiting = b.service(DatabaseLocks).acquire('test:one', { waitMs: 60_000 }).then((lock) => {
        acquired = true;
        return lock;
      });
      // B polls meanwhile, and never takes a lock A holds.
      await pause(400);
      expect(acquired).toBe(false);
      await lockA.release();
      const lockB = await waiting;
      expect(await a.service(DatabaseLocks).holderOf('test:one')).toMatchObject({ owner: b.service(DatabaseLocks).owner });
      // A late second release of A's changes nothing.
      await lockA.release();
      expect(await a.service(DatabaseLocks).holderOf('test:one')).toMatchObject({ owner: b.service(DatabaseLocks).owner });
      await lockB.release();
      expect(await a.service(DatabaseLocks).holderOf('test:one')).toBeUndefined();
    });

    it('waiters in one process take turns in order without asking the database for each other', async () => {
      const locks = a.service(DatabaseLocks);
      const order: number[] = [];
      const runs = [1, 2, 3].map((n) =>
        locks.withLock('test:queue', async () => {
          order.push(n);
          await pause(20);
          order.push(n);
        }),
      );
      await Promise.all(runs);
      expect(order).toEqual([1, 1, 2, 2, 3, 3]);
      expect(await locks.holderOf('test:queue')).toBeUndefined();
      // A wait that is given up leaves the queue to the next.
      const held = await locks.acquire('test:queue');
      await expect(locks.acquire('test:queue', { waitMs: 50 })).rejects.toBeInstanceOf(LockTimeoutError);
      const next = locks.acquire('test:queue', { waitMs: 60_000 });
      await held.release();
      await (await next).release();
    });

    it('a holder that died is overtaken once its lease expired; one whose process is gone at once', async () => {
      const b = await open({ reconcile: false });
      const stale = await a.service(DatabaseLocks).acquire('test:dead');
      // A "died": its lease is not renewed and runs out.
      await raw.db.updateTable('named_lock').set({ lease_until_unix: nowUnix() - 1 }).where('name', '=', 'test:dead').execute();
      const taken = await b.service(DatabaseLocks).acquire('test:dead', { waitMs: 60_000 });
      expect(await b.service(DatabaseLocks).holderOf('test:dead')).toMatchObject({ owner: b.service(DatabaseLocks).owner });
      // The old holder's release does not free the lock of the one that took it over.
      await stale.release();
      expect(await b.service(DatabaseLocks).holderOf('test:dead')).toMatchObject({ owner: b.service(DatabaseLocks).owner });
      await taken.release();

      // A lock row of a process that has exited, under a lease that still runs: taken over without waiting.
      const ghost = a.service(DatabaseLocks).owner.replace(/:\d+:([0-9a-f]+)$/, `:${deadPid()}:$1`);
      await raw.db.insertInto('named_lock').values({ name: 'test:ghost', owner: ghost, token: 'x', lease_until_unix: nowUnix() + 600, acquired_unix: nowUnix() }).execute();
      const mine = await b.service(DatabaseLocks).acquire('test:ghost', { waitMs: 0 });
      expect(await a.service(DatabaseLocks).holderOf('test:ghost')).toMatchObject({ owner: b.service(DatabaseLocks).owner });
      await mine.release();
      // A live holder of another process is not.
      const live = await a.service(DatabaseLocks).acquire('test:live');
      await expect(b.service(DatabaseLocks).acquire('test:live', { waitMs: 0 })).rejects.toBeInstanceOf(LockTimeoutError);
      await live.release();
    });
  });

  describe('storage changes of one repository', () => {
    it('a change on B waits while A changes the storage, then finds the row moved (409); storage and rows agree', async () => {
      const alice = await createUser(a, 'alice');
      const access = await a.repos.create(userActor(alice), { name: 'dance', auto_init: true });
      const b = await open({ reconcile: false });
      // A's move stops after git moved the storage, before its row changes.
      let resume!: () => void;
      const gate = new Promise<void>((resolve) => (resume = resolve));
      const realRename = a.git.rename.bind(a.git);
      const moved = vi.spyOn(a.git, 'rename').mockImplementationOnce(async (from, to) => {
        await realRename(from, to);
        await gate;
      });
      const first = a.repoSettings.rename(userActor(alice), access, 'dance-a');
      await vi.waitFor(async () => {
        expect(moved).toHaveBeenCalled();
        expect(await b.git.exists(key('alice', 'dance-a'))).toBe(true);
      }, { timeout: 30_000 });

      // B read the row as it still is, and asks for another move of the same storage.
      const onB = await b.repos.resolve(userActor(alice), 'alice', 'dance');
      let settled = false;
      const second = b.repoSettings.rename(userActor(alice), onB, 'dance-b').finally(() => (settled = true));
      second.catch(() => undefined);
      await pause(400);
      expect(settled).toBe(false);
      expect(await b.service(DatabaseLocks).holderOf(repoStorageLock(access.repo.id))).toMatchObject({ owner: a.service(DatabaseLocks).owner });

      resume();
      expect((await first).repo.name).toBe('dance-a');
      await expect(second).rejects.toBeInstanceOf(ConflictError);
      expect((await b.repos.resolve(SYSTEM, 'alice', 'dance-a')).repo.name).toBe('dance-a');
      expect(await b.git.exists(key('alice', 'dance-b'))).toBe(false);
      expect(await b.repoStorage.check()).toEqual({ unadopted: [], missing: [] });
      expect(await b.repoStorage.pending()).toEqual([]);
      expect(await b.service(DatabaseLocks).holderOf(repoStorageLock(access.repo.id))).toBeUndefined();
    });

    it('renames, then default-branch changes, from A and B at once leave storage, HEAD and rows agreeing', async () => {
      const alice = await createUser(a, 'alice');
      const created = await a.repos.create(userActor(alice), { name: 'spin', auto_init: true });
      await a.git.commitFiles(key('alice', 'spin'), { branch: 'dev', message: 'm', author: { name: 'a', email: 'a@b.c' }, files: [{ path: 'f', content: 'x' }] });
      const b = await open({ reconcile: false });
      const current = async (host: RepoHost) => (await host.repos.listOwnedBy(SYSTEM, alice)).items[0]!;
      for (let round = 0; round < 6; round++) {
        // Each process reads the row, then asks for its change: renames in even rounds, default branches in odd
        // ones (each checks the branch in the storage before its change, so the two kinds go in turns).
        const changes = [a, b].map(async (host, i) => {
          const access = await current(host);
          if (round % 2 === 0) return host.repoSettings.rename(userActor(alice), access, `spin-${round}-${i}`);
          return host.repoSettings.edit(userActor(alice), access, { default_branch: access.repo.default_branch === 'dev' ? 'main' : 'dev' });
        });
        const { fulfilled, rejected } = await outcomes(changes);
        // One of the two wins; a change based on a row the other changed meanwhile is refused (409), before git.
        expect(fulfilled.length).toBeGreaterThanOrEqual(1);
        for (const error of rejected) expect(error).toBeInstanceOf(ConflictError);
      }
      const row = await current(b);
      expect(row.repo.id).toBe(created.repo.id);
      expect(row.repo.lower_name).toMatch(/^spin-4-[01]$/);
      expect((await b.git.describe(key('alice', row.repo.lower_name))).headBranch).toBe(row.repo.default_branch);
      expect(await b.repoStorage.check()).toEqual({ unadopted: [], missing: [] });
      expect(await a.repoStorage.pending()).toEqual([]);
      expect(await raw.db.selectFrom('named_lock').selectAll().execute()).toEqual([]);
    });

    it('forks into one account from A and B at once: one is made, the other refused as already forked', async () => {
      const alice = await createUser(a, 'alice');
      const bob = await createUser(a, 'bob');
      await a.repos.create(userActor(alice), { name: 'src', auto_init: true });
      const b = await open({ reconcile: false });
      const parentOnA = await a.repos.resolve(userActor(bob), 'alice', 'src');
      const parentOnB = await b.repos.resolve(userActor(bob), 'alice', 'src');
      const { fulfilled, rejected } = await outcomes([
        a.forks.fork(userActor(bob), parentOnA, { name: 'f1' }),
        b.forks.fork(userActor(bob), parentOnB, { name: 'f2' }),
      ]);
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(1);
      expect(rejected[0]).toBeInstanceOf(ConflictError);
      expect((rejected[0] as Error).message).toMatch(/already forked/);
      const made = fulfilled[0]!.repo.lower_name;
      expect((await b.repos.listOwnedBy(SYSTEM, bob)).items.map((r) => r.repo.lower_name)).toEqual([made]);
      expect(await b.git.exists(key('bob', made === 'f1' ? 'f2' : 'f1'))).toBe(false);
      expect((await b.repos.resolve(SYSTEM, 'alice', 'src')).repo.num_forks).toBe(1);
      expect(await b.repoStorage.check()).toEqual({ unadopted: [], missing: [] });
      expect(await b.repoStorage.pending()).toEqual([]);
    });
  });

  // Two transactions of one process on one SQLite file would wait for each other synchronously (its single writer
  // serializes processes, and a host runs one transaction at a time): the race these check is PostgreSQL's.
  describe.runIf(TEST_DB === 'postgres')('the last owner of an organization', () => {
    /** An organization of `first` with `second` in its Owners team too, and that team. */
    async function twoOwners(host: RepoHost, name: string, first: User, second: User) {
      const org = await host.orgs.create(SYSTEM, first, { username: name });
      const owners = (await host.teams.listOfOrg(SYSTEM, org)).items.find((team) => team.name === 'Owners')!;
      await host.teams.addMember(SYSTEM, { team: owners, org }, second);
      return { org, owners };
    }

    it('two processes removing the two last owners at once leave one (organization members and the Owners team)', async () => {
      const alice = await createUser(a, 'alice');
      const bob = await createUser(a, 'bob');
      const b = await open({ reconcile: false });
      for (let round = 0; round < 3; round++) {
        const { org, owners } = await twoOwners(a, `acme${round}`, alice, bob);
        // Round by round: leaving the organization, then leaving the Owners team, then one of each.
        const removals = [
          round === 1 ? a.teams.removeMember(SYSTEM, { team: owners, org }, alice) : a.orgs.removeMember(SYSTEM, org, alice),
          round === 0 ? b.orgs.removeMember(SYSTEM, org, bob) : b.teams.removeMember(SYSTEM, { team: owners, org }, bob),
        ];
        const { fulfilled, rejected } = await outcomes(removals);
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(1);
        expect(rejected[0]).toBeInstanceOf(ValidationError);
        expect((rejected[0] as Error).message).toMatch(/last member of owner team/);
        const members = await b.teams.listMembers({ team: owners, org });
        expect(members.total).toBe(1);
        // The one left is still a member of the organization, its only one.
        expect((await b.orgs.listMembers(SYSTEM, org, { publicList: false })).items.map((u) => u.id)).toEqual([members.items[0]!.id]);
      }
    });

    it('two processes deleting the two last owners at once (purge) never leave the organization without one', async () => {
      const b = await open({ reconcile: false });
      const one = await createUser(a, 'one');
      const two = await createUser(a, 'two');
      const { org } = await twoOwners(a, 'pair', one, two);
      const { rejected } = await outcomes([a.accounts.deleteUser(SYSTEM, one, { purge: true }), b.accounts.deleteUser(SYSTEM, two, { purge: true })]);
      expect(rejected).toEqual([]);
      expect(await b.users.findById(one.id)).toBeUndefined();
      expect(await b.users.findById(two.id)).toBeUndefined();
      // The second to go was its last owner: the organization went with it, as Forgejo's purge does.
      expect(await b.users.findById(org.id)).toBeUndefined();
    });
  });
});
