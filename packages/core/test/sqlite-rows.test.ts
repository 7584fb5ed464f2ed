/**
 * The SQLite driver reads rows as arrays and builds their objects itself (storage/database.ts, `keptStatement`):
 * each row must be what better-sqlite3's own object rows are — same keys in the same order, same values and types,
 * repeated and odd column names included — through every way a query runs (Kysely, the precompiled direct read,
 * a stream, `returning`).
 */
import Database from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings, openStorage, type Storage } from '@repohost/core';

let storage: Storage;
let db: Kysely<any>;
/** better-sqlite3 as published, in its default object mode: what the rows must equal. */
const reference = new Database(':memory:');

const QUERIES = [
  `select 1 as "a", 'two' as "b", 3.5 as "c", null as "d", x'00ff' as "e", 9007199254740991 as "big"`,
  // A repeated name keeps its first place and its last value.
  `select 1 as "a", 2 as "b", 3 as "a"`,
  `select 2 as "constructor", 3 as "toString", 4 as "hasOwnProperty"`,
  `select 'q' as "we""ird", 'n' as "new
line", 'u' as "ünï", 's' as "a b", 'e' as ""`,
  `select 1 as "x" where 0`,
  `select value as "v", key as "k" from json_each('[10, "y", null, 2.5]')`,
];

beforeAll(async () => {
  const settings = loadSettings({ overrides: { database: { DB_TYPE: 'sqlite3', PATH: ':memory:' } } });
  storage = await openStorage(settings.database);
  db = storage.db as Kysely<any>;
});

afterAll(async () => {
  await storage.close();
  reference.close();
});

describe('rows built from the SQLite driver\'s arrays', () => {
  it('equal better-sqlite3\'s own rows, key order and repeated or odd names included', async () => {
    for (const text of QUERIES) {
      const expected = reference.prepare(text).all();
      const viaKysely = (await sql.raw(text).execute(db)).rows;
      const direct = storage.directRead!(text, []);
      for (const rows of [viaKysely, direct]) {
        expect(rows, text).toEqual(expected);
        expect((rows as object[]).map((row) => Object.keys(row)), text).toEqual(expected.map((row) => Object.keys(row as object)));
        for (const row of rows as object[]) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      }
    }
  });

  // better-sqlite3's own rows lose such a column (set through the prototype's setter, which ignores a number).
  it('define `__proto__` as a column, never as the prototype', async () => {
    const [row] = storage.directRead!(`select 1 as "__proto__"`, []) as Record<string, unknown>[];
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(1);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it('come the same from a stream, from `returning`, and from a statement run again with other values', async () => {
    await sql`create table rows_test (id integer primary key, name text not null, size integer)`.execute(db);
    const inserted = await db.insertInto('rows_test').values({ name: 'one', size: 1 }).returningAll().executeTakeFirstOrThrow();
    expect(inserted).toEqual({ id: 1, name: 'one', size: 1 });
    await db.insertInto('rows_test').values([{ name: 'two', size: null }, { name: 'three', size: 3 }]).execute();
    const streamed: unknown[] = [];
    for await (const row of db.selectFrom('rows_test').selectAll().orderBy('id').stream()) streamed.push(row);
    expect(streamed).toEqual([
      { id: 1, name: 'one', size: 1 },
      { id: 2, name: 'two', size: null },
      { id: 3, name: 'three', size: 3 },
    ]);
    // One kept statement, other values: rows of its one shape, nothing carried over from the last run.
    const byName = (name: string) => db.selectFrom('rows_test').select(['name', 'size']).where('name', '=', name).execute();
    expect(await byName('two')).toEqual([{ name: 'two', size: null }]);
    expect(await byName('three')).toEqual([{ name: 'three', size: 3 }]);
    expect(await byName('none')).toEqual([]);
    const updated = await db.updateTable('rows_test').set({ size: 4 }).where('id', '=', 3).executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(1);
  });
});
