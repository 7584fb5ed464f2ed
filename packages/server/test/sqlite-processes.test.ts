/**
 * SQLite with several processes on one file (`repohost web --workers N`, `repohost serv` beside the server): a
 * statement waiting for another process's write lock waits off the event loop and lets this process's other
 * queries through, transactions take the write lock first (no SQLITE_BUSY_SNAPSHOT for one that reads then
 * writes), and a lock held too long ends in a 503 with Retry-After, never a 500. The other process is a second
 * connection (raw better-sqlite3, or a second Storage), which SQLite locks against exactly as it would another
 * process; being in this process also proves the wait never blocks: the holder could not commit otherwise.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnavailableError, loadSettings, openStorage, type Storage } from '@repohost/core';
import { TEST_DB, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The longest gap between ticks of a 5 ms interval while it runs: how long the event loop was held. */
function loopProbe(): { stop(): number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - last);
    },
  };
}

/** Settles-or-not of a promise, looked at later without awaiting it. */
function track<T>(promise: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  watched.catch(() => undefined);
  return { settled: () => settled, promise: watched };
}

describe.runIf(TEST_DB === 'sqlite')('SQLite with several processes on one file', () => {
  let folder: string;
  let file: string;
  const opened: Storage[] = [];
  const raw: Database.Database[] = [];

  const storage = async () => {
    const settings = loadSettings({ workPath: folder, overrides: { database: { PATH: file } } });
    const s = await openStorage(settings.database);
    opened.push(s);
    return s;
  };
  /** Another process's connection. */
  const otherProcess = () => {
    const db = new Database(file);
    db.pragma('busy_timeout = 0');
    raw.push(db);
    return db;
  };

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'repohost-sqlite-processes-'));
    file = path.join(folder, 'data', 'forgejo.db');
    const s = await storage();
    await sql`CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`.execute(s.db);
    await sql`INSERT INTO counter (id, n) VALUES (1, 0)`.execute(s.db);
    await sql`CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.execute(s.db);
  });
  afterEach(async () => {
    for (const db of raw.splice(0)) {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    }
    for (const s of opened.splice(0)) await s.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('a write waits for the lock off the event loop, lets this process read meanwhile, and lands once the lock is free', async () => {
    const s = await storage();
    const other = otherProcess();
    other.exec('BEGIN IMMEDIATE');
    other.prepare('INSERT INTO item (name) VALUES (?)').run('theirs');

    const probe = loopProbe();
    const write = track(s.db.insertInto('item').values({ name: 'ours' }).execute());
    await sleep(300);
    expect(write.settled()).toBe(false);
    // The connection is not held by the waiting write: a read goes through (and sees only what was committed).
    const during = await s.db.selectFrom('item').select('name').execute();
    expect(during).toEqual([]);
    const inTransaction = await s.db.transaction().setAccessMode('read only').execute((trx) => trx.selectFrom('counter').select('n').executeTakeFirstOrThrow());
    expect(inTransaction).toEqual({ n: 0 });
    expect(write.settled()).toBe(false);

    // This process's own timer commits the other's transaction: it could not run if the wait held the loop.
    other.exec('COMMIT');
    await write.promise;
    const worstGap = probe.stop();
    const names = (await s.db.selectFrom('item').select('name').orderBy('id').execute()).map((row) => row.name);
    expect(names).toEqual(['theirs', 'ours']);
    // Generous: a wait on SQLite's busy handler held it for the whole 5 s timeout.
    expect(worstGap).toBeLessThan(1500);
  });

  it('transactions that read then write, from two processes at once, all commit with nothing lost', async () => {
    const [a, b] = [await storage(), await storage()];
    const increments = 25;
    const bump = async (s: Storage) => {
      for (let i = 0; i < increments; i++) {
        await s.db.transaction().execute(async (trx) => {
          const { n } = await trx.selectFrom('counter').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
          // The other process gets its turn between the read and the write (a deferred BEGIN fails here with
          // SQLITE_BUSY_SNAPSHOT when the other wrote since this read).
          await sleep(1);
          await trx.updateTable('counter').set({ n: n + 1 }).where('id', '=', 1).execute();
        });
      }
    };
    const outcomes = await Promise.allSettled([bump(a), bump(b), bump(a), bump(b)]);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const { n } = await a.db.selectFrom('counter').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(n).toBe(4 * increments);
  });

  it('a transaction waits for the lock before it begins, and this process reads meanwhile', async () => {
    const s = await storage();
    const other = otherProcess();
    other.exec('BEGIN IMMEDIATE');
    other.prepare('UPDATE counter SET n = n + 10 WHERE id = 1').run();
    const tx = track(
      s.db.transaction().execute(async (trx) => {
        const { n } = await trx.selectFrom('counter').select('n').where('id', '=', 1).executeTakeFirstOrThrow();
        await trx.updateTable('counter').set({ n: n + 1 }).where('id', '=', 1).execute();
        return n;
      }),
    );
    await sleep(200);
    expect(tx.settled()).toBe(false);
    expect(await s.db.selectFrom('counter').select('n').executeTakeFirstOrThrow()).toEqual({ n: 0 });
    other.exec('COMMIT');
    // It read after the other's commit, not before: nothing is lost.
    expect(await tx.promise).toBe(10);
    expect(await s.db.selectFrom('counter').select('n').executeTakeFirstOrThrow()).toEqual({ n: 11 });
  });

  it('a write that cannot get the lock in time fails with UnavailableError, and nothing is written', async () => {
    const s = await storage();
    const other = otherProcess();
    other.exec('BEGIN IMMEDIATE');
    const probe = loopProbe();
    const started = performance.now();
    const error = await s.db
      .insertInto('item')
      .values({ name: 'late' })
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const waited = performance.now() - started;
    const worstGap = probe.stop();
    other.exec('ROLLBACK');
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).kind).toBe('unavailable');
    expect((error as UnavailableError).retryAfterSeconds).toBeGreaterThan(0);
    expect((error as Error).message).toContain('database is busy');
    // The bound is max([database] SQLITE_TIMEOUT, 5000) ms, waited in full.
    expect(waited).toBeGreaterThanOrEqual(4900);
    expect(worstGap).toBeLessThan(1500);
    expect(await s.db.selectFrom('item').select('name').execute()).toEqual([]);
  }, 30_000);

  describe('through the API', () => {
    let server: TestServer;
    afterEach(async () => {
      for (const db of raw.splice(0)) {
        if (db.inTransaction) db.exec('ROLLBACK');
        db.close();
      }
      await server?.cleanup();
    });

    it('a write blocked too long by another process answers 503 with Retry-After; reads keep answering; it succeeds once the lock is free', async () => {
      server = await startTestServer({ database: { PATH: path.join(folder, 'api', 'forgejo.db') } });
      const user = await createUser(server.host, 'alice');
      const token = await createToken(server.host, user.name);
      const create = () => server.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'busy' }, tokenHeader(token)));

      const other = new Database(server.host.settings.database.PATH);
      raw.push(other);
      other.exec('BEGIN IMMEDIATE');
      const blocked = track(create());
      // Reads keep answering while the write waits.
      await sleep(200);
      const version = await server.fetch('/api/v1/version');
      expect(version.status).toBe(200);
      const profile = await server.fetch('/api/v1/users/alice');
      expect(profile.status).toBe(200);
      expect(blocked.settled()).toBe(false);

      const answer = await blocked.promise;
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await answer.json()) as { message: string }).message).toContain('database is busy');
      other.exec('ROLLBACK');

      const again = await create();
      expect(again.status).toBe(201);
      expect(((await again.json()) as { full_name: string }).full_name).toBe('alice/busy');
    }, 60_000);
  });
});
