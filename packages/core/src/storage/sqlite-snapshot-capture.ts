/**
 * Reading a SQLite database's whole schema state, and writing it as the statements that recreate it: what
 * `scripts/sqlite-schema-snapshot.mjs` puts in `sqlite-snapshot.ts`, and what `test/sqlite-snapshot.test.ts` compares
 * between a database the migrator built and one the snapshot built. Development only: nothing in the published
 * package imports this file.
 */
import { sql, type Kysely } from 'kysely';
import { MIGRATION_TABLE } from './migrator.js';

/** Everything of a database that migrations decide, in a form two databases can be compared by. */
export interface SqliteSchemaState {
  /** `sqlite_master` in creation order (rowid), `sqlite_*` internal tables left out. */
  readonly objects: readonly { type: string; name: string; tbl_name: string; sql: string | null }[];
  /** Every table's rows (`sqlite_sequence` included; the migrator's bookkeeping table is `migrations`), by rowid. */
  readonly rows: Readonly<Record<string, readonly unknown[][]>>;
  /** The bookkeeping table's migration names, in the order they were recorded. */
  readonly migrations: readonly string[];
  /** The bookkeeping table's timestamps, same order: ISO times, different in every database. */
  readonly migrationTimes: readonly string[];
  /** Header fields a migration could set with a pragma. */
  readonly pragmas: Readonly<Record<(typeof PRAGMAS)[number], unknown>>;
}

const PRAGMAS = ['user_version', 'application_id', 'auto_vacuum', 'encoding'] as const;

export async function captureSqliteSchema(db: Kysely<any>): Promise<SqliteSchemaState> {
  const { rows: master } = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
    select type, name, tbl_name, sql from sqlite_master order by rowid`.execute(db);
  const objects = master.filter((o) => !(o.type === 'table' && o.name.startsWith('sqlite_')));
  const rows: Record<string, unknown[][]> = {};
  // sqlite_sequence holds the AUTOINCREMENT counters: a migration that inserted rows moved them.
  const tables = master.filter((o) => o.type === 'table' && o.name !== MIGRATION_TABLE && o.name !== 'sqlite_stat1').map((o) => o.name);
  for (const table of tables) {
    // Raw arrays, in column order; every table of ours has a rowid (none is WITHOUT ROWID).
    const { rows: found } = await sql<Record<string, unknown>>`select * from ${sql.id(table)} order by rowid`.execute(db);
    if (found.length > 0) rows[table] = found.map((row) => Object.values(row));
  }
  const { rows: bookkeeping } = await sql<{ name: string; timestamp: string }>`
    select name, timestamp from ${sql.id(MIGRATION_TABLE)} order by rowid`.execute(db);
  const pragmas = {} as Record<(typeof PRAGMAS)[number], unknown>;
  for (const pragma of PRAGMAS) {
    const { rows: value } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${pragma}`)}`.execute(db);
    pragmas[pragma] = value[0]?.[pragma];
  }
  return { objects, rows, migrations: bookkeeping.map((r) => r.name), migrationTimes: bookkeeping.map((r) => r.timestamp), pragmas };
}

/**
 * The statements that turn an empty database into `state`: tables, then indexes, views and triggers (each kind in
 * creation order: an index comes after its table even when a migration rebuilt that table), then the rows, then the
 * bookkeeping rows stamped with the time they are run, as the migrator stamps its own.
 */
export function snapshotStatements(state: SqliteSchemaState): string[] {
  const kinds = ['table', 'index', 'view', 'trigger'];
  const unknown = state.objects.find((o) => !kinds.includes(o.type));
  if (unknown) throw new Error(`sqlite_master holds a ${unknown.type} (${unknown.name}) the snapshot does not know how to recreate`);
  const statements: string[] = [];
  for (const kind of kinds) {
    // Indexes with no SQL are the ones SQLite makes for UNIQUE and PRIMARY KEY columns: the table's SQL makes them.
    for (const o of state.objects) if (o.type === kind && o.sql !== null) statements.push(o.sql);
  }
  for (const [table, rows] of Object.entries(state.rows)) {
    for (const row of rows) statements.push(`insert into ${quoteName(table)} values (${row.map(literal).join(', ')})`);
  }
  if (state.migrations.length > 0) {
    // The migrator's own format (`new Date().toISOString()`), the same instant for all: they are applied at once.
    const values = state.migrations.map((name) => `(${literal(name)}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`);
    statements.push(`insert into ${quoteName(MIGRATION_TABLE)} (name, timestamp) values ${values.join(', ')}`);
  }
  for (const [pragma, value] of Object.entries(state.pragmas)) {
    // The defaults of a new database need no statement (encoding cannot change once tables exist anyway).
    if (pragma === 'encoding' ? value !== 'UTF-8' : value !== 0) statements.push(`pragma ${pragma} = ${literal(value)}`);
  }
  return statements;
}

/** The generated module `sqlite-snapshot.ts`. */
export function snapshotModule(state: SqliteSchemaState, script: string): string {
  const lines = [
    `// Generated by \`${script}\` from the migrations: do not edit. test/sqlite-snapshot.test.ts checks it is current.`,
    '',
    '/** A new SQLite database as every migration of `migrations` leaves it (see migrator.ts: `applySqliteSnapshot`). */',
    'export const SQLITE_SNAPSHOT: { readonly migrations: readonly string[]; readonly statements: readonly string[] } = {',
    '  migrations: [',
    ...state.migrations.map((name) => `    ${JSON.stringify(name)},`),
    '  ],',
    '  statements: [',
    ...snapshotStatements(state).map((statement) => `    ${JSON.stringify(statement)},`),
    '  ],',
    '};',
    '',
  ];
  return lines.join('\n');
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (value instanceof Uint8Array) return `x'${Buffer.from(value).toString('hex')}'`;
  throw new Error(`the snapshot cannot hold the value ${String(value)}`);
}
