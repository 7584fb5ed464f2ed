/**
 * `Store.precompiledIn`: a batch read compiled once per length bucket of its list (the list padded by repeating its
 * last value), and read in chunks of 128, must find exactly what the same query built anew finds, for any length,
 * with repeated values and other bound values, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import { Store, type StoreScope } from '@repohost/core';
import { openTestHost, type TestHost } from '@repohost/test-support';

interface ProbeTables {
  batch_read_probe: { id: number; kind: string; value: number };
}

class ProbeStore extends Store<ProbeTables> {
  readonly ofIds = this.precompiledIn('ofIds', (db, ids) => db.selectFrom('batch_read_probe').selectAll().where('id', 'in', ids).orderBy('id'));
  readonly ofIdsOfKind = this.precompiledIn<ProbeTables['batch_read_probe'], 'kind'>('ofIdsOfKind', (db, ids, param) =>
    db.selectFrom('batch_read_probe').select(['id', 'value']).where('kind', '=', param('kind')).where('id', 'in', ids).orderBy('id'),
  );
}

let t: TestHost;
let store: ProbeStore;
let db: Kysely<ProbeTables>;
const ROWS = 400;

beforeAll(async () => {
  t = await openTestHost();
  const ctx = (t.host as unknown as { ctx: { store<S>(c: new (scope: StoreScope) => S): S; storage: { db: Kysely<any> } } }).ctx;
  db = (t.host as unknown as { storage: { db: Kysely<ProbeTables> } }).storage.db;
  await db.schema.createTable('batch_read_probe').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('kind', 'varchar(10)', (c) => c.notNull()).addColumn('value', 'integer', (c) => c.notNull()).execute();
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: i + 1, kind: i % 3 === 0 ? 'three' : 'other', value: (i + 1) * 10 }));
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('batch_read_probe').values(rows.slice(i, i + 100)).execute();
  store = ctx.store(ProbeStore);
});
afterAll(async () => {
  await t?.cleanup();
});

/** Ids spread over the table, some absent (beyond it), some repeated. */
function idsOf(length: number): number[] {
  const ids: number[] = [];
  for (let i = 0; i < length; i++) ids.push(i % 7 === 6 ? ids[i - 1] ?? 1 : ((i * 37) % (ROWS + 40)) + 1);
  return ids;
}

test('finds what the query built anew finds, for every list length around the buckets and the chunk size', async () => {
  for (const length of [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 64, 100, 127, 128, 129, 200, 256, 300]) {
    const ids = idsOf(length);
    const expected = length === 0 ? [] : await db.selectFrom('batch_read_probe').selectAll().where('id', 'in', ids).orderBy('id').execute();
    const found = await store.ofIds(ids);
    const byId = (rows: { id: number }[]) => [...rows].sort((a, b) => Number(a.id) - Number(b.id));
    expect(byId(found), `${length} ids`).toEqual(byId(expected));
    // Read in one query up to 128 values: in the query's order then.
    if (length <= 128) expect(found, `${length} ids`).toEqual(expected);
    const kind = await store.ofIdsOfKind(ids, { kind: 'three' });
    const expectedOfKind = length === 0 ? [] : await db.selectFrom('batch_read_probe').select(['id', 'value']).where('kind', '=', 'three').where('id', 'in', ids).orderBy('id').execute();
    expect(byId(kind), `${length} ids of a kind`).toEqual(byId(expectedOfKind));
  }
});

test('a list of one value repeated finds its row once, and values that match nothing find nothing', async () => {
  expect(await store.ofIds([5, 5, 5, 5, 5])).toEqual([{ id: 5, kind: 'other', value: 50 }]);
  expect(await store.ofIds([ROWS + 1, ROWS + 2, ROWS + 3])).toEqual([]);
  expect(await store.ofIdsOfKind([1, 2, 3, 4], { kind: 'none' })).toEqual([]);
});
