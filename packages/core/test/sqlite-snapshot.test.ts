/**
 * A new SQLite database gets its schema from a snapshot (storage/sqlite-snapshot.ts, written by
 * scripts/sqlite-schema-snapshot.mjs) instead of running every migration. These tests make sure the snapshot cannot
 * drift from the migrations unnoticed, and that a database made from it migrates on like any other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrationNames, openStorage, RepoHost, type Storage } from '@repohost/core';
import { applySqliteSnapshot, migrateStorage, migrateToLatest, runMigrations } from '../src/storage/migrator.js';
import { MIGRATIONS } from '../src/storage/migrations/index.js';
import { createTableWithId, type Migration } from '../src/storage/migrations/kit.js';
import { SQLITE_SNAPSHOT } from '../src/storage/sqlite-snapshot.js';
import { captureSqliteSchema, snapshotStatements, type SqliteSchemaState } from '../src/storage/sqlite-snapshot-capture.js';

const RUN_SCRIPT = 'the SQLite schema snapshot is out of date: run `node scripts/sqlite-schema-snapshot.mjs`';

const opened: Storage[] = [];
const folders: string[] = [];

async function sqliteStorage(file = ':memory:'): Promise<Storage> {
  const storage = await openStorage({ DB_TYPE: 'sqlite3', PATH: file, SQLITE_TIMEOUT: 5000 } as Parameters<typeof openStorage>[0]);
  opened.push(storage);
  return storage;
}

/** A database the migrator built, one migration after the other, as before snapshots. */
async function migratedStepByStep(): Promise<Storage> {
  const storage = await sqliteStorage();
  expect(await migrateToLatest(storage.db, 'sqlite')).toEqual(migrationNames());
  return storage;
}

async function fromSnapshot(file?: string): Promise<Storage> {
  const storage = await sqliteStorage(file);
  expect(await applySqliteSnapshot(storage)).toEqual(migrationNames());
  return storage;
}

/** The state with what differs between any two databases left out: creation order and the migrations' times. */
function comparable(state: SqliteSchemaState) {
  const objects = [...state.objects].sort((a, b) => `${a.type} ${a.name}`.localeCompare(`${b.type} ${b.name}`));
  return { objects, rows: state.rows, migrations: state.migrations, pragmas: state.pragmas };
}

afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe.skipIf(process.env.REPOHOST_TEST_DB === 'postgres')('the SQLite schema snapshot', () => {
  it('stands for the current migration list', () => {
    expect(SQLITE_SNAPSHOT.migrations, RUN_SCRIPT).toEqual(migrationNames());
  });

  it('holds what the script would write from the migrations now', async () => {
    const state = await captureSqliteSchema((await migratedStepByStep()).db);
    expect(SQLITE_SNAPSHOT.statements, RUN_SCRIPT).toEqual(snapshotStatements(state));
  });

  it('makes the database the migrator makes: schema, rows, pragmas and bookkeeping', async () => {
    const migrated = await captureSqliteSchema((await migratedStepByStep()).db);
    const started = new Date();
    const snapshot = await captureSqliteSchema((await fromSnapshot()).db);
    expect(comparable(snapshot), RUN_SCRIPT).toEqual(comparable(migrated));
    // Sanity of the comparison itself: it saw the tables, indexes and the lock row.
    expect(snapshot.objects.filter((o) => o.type === 'table').length).toBeGreaterThan(50);
    expect(snapshot.objects.some((o) => o.type === 'index' && o.sql !== null)).toBe(true);
    expect(snapshot.rows['repohost_migration_lock']).toEqual([['migration_lock', 0]]);
    // Stamped with the time it ran, in the migrator's format.
    for (const time of snapshot.migrationTimes) {
      expect(new Date(time).toISOString()).toBe(time);
      expect(Date.parse(time)).toBeGreaterThanOrEqual(started.getTime() - 1000);
    }
  });

  it('is used on an empty database only, and the migrator then finds nothing to do', async () => {
    const storage = await sqliteStorage();
    expect(await migrateStorage(storage)).toEqual(migrationNames());
    expect(await migrateStorage(storage)).toEqual([]);
    expect(await applySqliteSnapshot(storage)).toEqual([]);

    // A database with any table of its own is the migrator's, even if it has no bookkeeping yet.
    const other = await sqliteStorage();
    await sql`create table unrelated (id integer)`.execute(other.db);
    expect(await applySqliteSnapshot(other)).toEqual([]);
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(other.db);
    expect(rows.map((r) => r.name)).toEqual(['unrelated']);
  });

  it('leaves the bookkeeping a later migration builds on', async () => {
    const storage = await fromSnapshot();
    const later: Migration = {
      name: '9999_tests_later',
      up: async (db, dialect) => {
        await createTableWithId(db, dialect, 'later_table').addColumn('user_id', 'bigint', (c) => c.notNull()).execute();
        await db.schema.alterTable('user').addColumn('later_flag', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      },
    };
    expect(await runMigrations(storage.db, 'sqlite', [...MIGRATIONS, later])).toEqual(['9999_tests_later']);
    expect(await runMigrations(storage.db, 'sqlite', [...MIGRATIONS, later])).toEqual([]);
    const state = await captureSqliteSchema(storage.db);
    expect(state.migrations).toEqual([...migrationNames(), '9999_tests_later']);
    expect(state.objects.some((o) => o.name === 'later_table')).toBe(true);
    await sql`insert into "user" (lower_name, name, email, lower_email, created_unix, updated_unix) values ('a', 'a', 'a@x', 'a@x', 1, 1)`.execute(storage.db);
    const { rows } = await sql<{ later_flag: number }>`select later_flag from "user"`.execute(storage.db);
    expect(rows).toEqual([{ later_flag: 0 }]);
  });

  it('leaves the migrations it lacks to the migrator, and a snapshot that does not fit the list unused', async () => {
    // A snapshot written before the last migrations were added: the state of the first ones.
    const older = await sqliteStorage();
    const first = MIGRATIONS.slice(0, MIGRATIONS.length - 3);
    await runMigrations(older.db, 'sqlite', first);
    const olderSnapshot = { migrations: first.map((m) => m.name), statements: snapshotStatements(await captureSqliteSchema(older.db)) };
    const expected = comparable(await captureSqliteSchema((await migratedStepByStep()).db));
    try {
      vi.resetModules();
      vi.doMock('../src/storage/sqlite-snapshot.js', () => ({ SQLITE_SNAPSHOT: olderSnapshot }));
      const stale = await import('../src/storage/migrator.js');
      expect(await stale.applySqliteSnapshot(await sqliteStorage())).toEqual(olderSnapshot.migrations);
      const storage = await sqliteStorage();
      expect(await stale.migrateStorage(storage)).toEqual(migrationNames());
      expect(comparable(await captureSqliteSchema(storage.db))).toEqual(expected);

      // One naming a migration the list does not have (renamed, or from another branch) is not applied at all.
      vi.resetModules();
      vi.doMock('../src/storage/sqlite-snapshot.js', () => ({ SQLITE_SNAPSHOT: { migrations: ['0001_other_name'], statements: ['create table wrong (id integer)'] } }));
      const foreign = await import('../src/storage/migrator.js');
      const other = await sqliteStorage();
      expect(await foreign.applySqliteSnapshot(other)).toEqual([]);
      expect(await foreign.migrateStorage(other)).toEqual(migrationNames());
      expect(comparable(await captureSqliteSchema(other.db))).toEqual(expected);
    } finally {
      vi.doUnmock('../src/storage/sqlite-snapshot.js');
      vi.resetModules();
    }
  });

  it('creates a new database file once when two connections open it together', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'repohost-snapshot-'));
    folders.push(folder);
    const file = path.join(folder, 'new.db');
    const [a, b] = [await sqliteStorage(file), await sqliteStorage(file)];
    const applied = await Promise.all([migrateStorage(a), migrateStorage(b)]);
    // Whichever came second found the schema made (by the snapshot or by the migrator), and applied nothing.
    expect(applied.map((names) => names.length).sort((x, y) => x - y)).toEqual([0, migrationNames().length]);
    const state = comparable(await captureSqliteSchema(b.db));
    expect(state).toEqual(comparable(await captureSqliteSchema((await migratedStepByStep()).db)));
  });

  it('gives RepoHost.inMemory the whole schema', async () => {
    const host = await RepoHost.inMemory();
    try {
      expect(await host.migrate()).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
