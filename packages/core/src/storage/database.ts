import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type Compilable, type Dialect } from 'kysely';
import type { Settings } from '../config/settings.js';
import type { UsersTables } from '../users/tables.js';
import type { TokensTables } from '../tokens/tables.js';
import type { ReposTables } from '../repos/tables.js';

/** Every table, contributed by the domain that owns it. */
export interface Database extends UsersTables, TokensTables, ReposTables {}

export type DialectName = 'sqlite' | 'postgres';

export interface Storage {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /**
   * Runs a read synchronously on SQLite's connection when no transaction holds it; returns undefined when the
   * caller must go through Kysely instead (PostgreSQL, or a transaction is open). See precompiledQuery.
   */
  readonly directRead?: DirectRead;
  close(): Promise<void>;
}

export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

/** Opens the database named by `[database]`. Nothing is shared between two Storage instances. */
export async function openStorage(settings: Settings['database']): Promise<Storage> {
  if (settings.DB_TYPE === 'postgres') return openPostgres(settings);
  return openSqlite(settings);
}

async function openSqlite(settings: Settings['database']): Promise<Storage> {
  const { default: SqliteDatabase } = await import('better-sqlite3');
  if (settings.PATH !== ':memory:') mkdirSync(path.dirname(settings.PATH), { recursive: true });
  const sqlite = new SqliteDatabase(settings.PATH, { timeout: Math.max(settings.SQLITE_TIMEOUT, 5000) });
  if (settings.PATH !== ':memory:') sqlite.pragma(`journal_mode = ${settings.SQLITE_JOURNAL_MODE || 'WAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const database = cachingStatements(sqlite);
  // better-sqlite3 runs a statement to completion synchronously, so outside a transaction a direct read cannot
  // interleave with anything Kysely is doing on the same connection; inside one it must wait its turn.
  const directRead: DirectRead = (sql, parameters) => (sqlite.inTransaction ? undefined : database.prepare(sql).all(parameters));
  return makeStorage(new SqliteDialect({ database }), 'sqlite', directRead);
}

type BetterSqlite = import('better-sqlite3').Database;

/**
 * Kysely prepares every query anew; preparing costs more than running our indexed lookups, so statements are
 * kept per SQL text. better-sqlite3 runs each statement to completion synchronously, so sharing one is safe.
 */
function cachingStatements(sqlite: BetterSqlite, capacity = 500) {
  const statements = new Map<string, ReturnType<BetterSqlite['prepare']>>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

async function openPostgres(settings: Settings['database']): Promise<Storage> {
  const { default: pg } = await import('pg');
  const { host, port } = splitHostPort(settings.HOST);
  const int8 = 20;
  const numeric = 1700;
  const pool = new pg.Pool({
    host,
    port,
    database: settings.NAME,
    user: settings.USER,
    password: settings.PASSWD,
    max: Math.max(1, settings.MAX_OPEN_CONNS),
    ssl: settings.SSL_MODE === 'disable' ? false : { rejectUnauthorized: settings.SSL_MODE === 'verify-full' },
    // Our ids, counters and unix timestamps are int8; they fit a JS number.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8 || oid === numeric ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as never,
    },
    ...(settings.SCHEMA ? { options: `-c search_path=${quoteIdent(settings.SCHEMA)}` } : {}),
  });
  return makeStorage(new PostgresDialect({ pool }), 'postgres');
}

function makeStorage(dialect: Dialect, name: DialectName, directRead?: DirectRead): Storage {
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    dialect: name,
    directRead,
    close: () => db.destroy(),
  };
}

function splitHostPort(hostPort: string): { host: string; port: number } {
  // Unix socket folders are given as a path.
  if (hostPort.startsWith('/')) return { host: hostPort, port: 5432 };
  const m = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(hostPort);
  return { host: m?.[1] || '127.0.0.1', port: m?.[2] ? Number(m[2]) : 5432 };
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Unix seconds, the time unit stored in every `*_unix` column (as Forgejo does). */
export function nowUnix(): number {
  return Math.floor(Date.now() / 1000);
}

/** True when a driver error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/**
 * A read built once with Kysely's typed builder and compiled once; each run only binds new parameter values,
 * and on SQLite runs directly on the cached statement when it can. For hot reads, where Kysely's per-query
 * building and async execution cost more than the query. `build` receives `param(name)`, which stands for a
 * value supplied at run time.
 */
export function precompiledQuery<Row, Name extends string>(
  storage: Pick<Storage, 'db' | 'directRead'>,
  // `param` yields a marker string at build time; typed `never` so it fits a column of any type.
  build: (param: (name: Name) => never) => Compilable<Row>,
): (values: Record<Name, unknown>) => Promise<Row[]> {
  const prefix = '\u0000param:';
  const compiled = build((name) => `${prefix}${name}` as never).compile();
  const slots = compiled.parameters.map((value) => {
    if (typeof value !== 'string' || !value.startsWith(prefix)) throw new Error('precompiledQuery: every parameter must come from param()');
    return value.slice(prefix.length) as Name;
  });
  return async (values) => {
    const parameters = slots.map((name) => values[name]);
    const direct = storage.directRead?.(compiled.sql, parameters);
    if (direct) return direct as Row[];
    return (await storage.db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters))).rows;
  };
}
