import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type Dialect, type Expression, type SchemaMetadata, type SqlBool, type TableMetadata } from 'kysely';
import type { Settings } from '../config/index.js';
import { BoundedMap } from '../bounded-map.js';
import { guardedPool } from './postgres-pool.js';

export type DialectName = 'sqlite' | 'postgres';

/**
 * An open database. Untyped here on purpose: each domain's store types the handle with its own tables, so no
 * file has to list every table of every domain.
 */
export interface Storage {
  readonly db: Kysely<any>;
  readonly dialect: DialectName;
  /**
   * Runs a read synchronously on SQLite's connection when no transaction holds it; returns undefined when the
   * caller must go through Kysely instead (PostgreSQL, or a transaction is open). Only precompiled queries use it.
   */
  readonly directRead?: (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;
  /** The connection pool's state, for `/metrics` (PostgreSQL; SQLite has one connection and no pool). */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** Opens the database named by `[database]`. Nothing is shared between two Storage instances. */
export async function openStorage(settings: Settings['database']): Promise<Storage> {
  if (settings.DB_TYPE === 'postgres') return openPostgres(settings);
  return openSqlite(settings);
}

async function openSqlite(settings: Settings['database']): Promise<Storage> {
  const { default: SqliteDatabase } = await import('better-sqlite3');
  if (settings.PATH !== ':memory:') {
    // The database holds password and token hashes: folder and file readable by the server's account only.
    // SQLite gives its -wal and -shm files the main file's mode.
    mkdirSync(path.dirname(settings.PATH), { recursive: true, mode: 0o700 });
    closeSync(openSync(settings.PATH, 'a', 0o600));
  }
  const sqlite = new SqliteDatabase(settings.PATH, { timeout: Math.max(settings.SQLITE_TIMEOUT, 5000) });
  if (settings.PATH !== ':memory:') sqlite.pragma(`journal_mode = ${settings.SQLITE_JOURNAL_MODE || 'WAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const database = cachingStatements(sqlite);
  // better-sqlite3 runs a statement to completion synchronously, so outside a transaction a direct read cannot
  // interleave with anything Kysely is doing on the same connection; inside one it must wait its turn.
  const directRead = (sql: string, parameters: readonly unknown[]) =>
    sqlite.inTransaction ? undefined : database.prepare(sql).all(parameters as unknown[]);
  return makeStorage(new SqliteDialect({ database }), 'sqlite', directRead);
}

/**
 * Writes a consistent copy of the SQLite database named by `[database]` to `file` (which must not exist), while
 * other connections keep working: `VACUUM INTO` reads one snapshot. For `repohost dump`.
 */
export async function backupSqlite(settings: Settings['database'], file: string): Promise<void> {
  if (settings.DB_TYPE === 'postgres' || settings.PATH === ':memory:') throw new Error('backupSqlite copies a SQLite database file');
  const { default: SqliteDatabase } = await import('better-sqlite3');
  const sqlite = new SqliteDatabase(settings.PATH, { fileMustExist: true, readonly: true, timeout: Math.max(settings.SQLITE_TIMEOUT, 5000) });
  try {
    sqlite.prepare('VACUUM INTO ?').run(file);
  } finally {
    sqlite.close();
  }
}

type BetterSqlite = import('better-sqlite3').Database;

/**
 * Kysely prepares every query anew; preparing costs more than running our indexed lookups, so statements are
 * kept per SQL text. better-sqlite3 runs each statement to completion synchronously, so sharing one is safe.
 */
function cachingStatements(sqlite: BetterSqlite, capacity = 500) {
  const statements = new BoundedMap<string, ReturnType<BetterSqlite['prepare']>>(capacity);
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
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
    // A connection (or a free one from the pool) not had in this time is a 503, not a request waiting forever for an
    // unreachable server; TCP keepalive notices a server that vanished under an idle connection.
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // What `pg_stat_activity` shows operators (and what `pg_terminate_backend` can pick): RepoHost, and its schema
    // when several installations share a database.
    application_name: settings.SCHEMA ? `repohost ${settings.SCHEMA}`.slice(0, 63) : 'repohost',
    ssl: settings.SSL_MODE === 'disable' ? false : { rejectUnauthorized: settings.SSL_MODE === 'verify-full' },
    // Our ids, counters and unix timestamps are int8; they fit a JS number.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8 || oid === numeric ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as never,
    },
    ...(settings.SCHEMA ? { options: `-c search_path=${quoteIdent(settings.SCHEMA)}` } : {}),
  });
  // Lost connections become 503s, and never end the process (postgres-pool.ts).
  const storage = makeStorage(new SchemaPostgresDialect({ pool: guardedPool(pool) }), 'postgres');
  return { ...storage, poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) };
}

/** How long a request waits for a PostgreSQL connection (a new one, or a free one of the pool). */
const POSTGRES_CONNECT_TIMEOUT_MS = 30_000;

/**
 * Kysely's PostgreSQL introspector reads the columns of every schema in the database through functions
 * (`has_schema_privilege`, `pg_get_serial_sequence`) that fail when another session drops or alters a schema at the
 * same moment: another installation in the same database, or a test's host, would make a migration fail with
 * "schema … does not exist". It also costs a scan of all of them. The migrator only asks which tables exist, so
 * the answer comes from this connection's own schema, by catalog columns alone.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(this.db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

class SchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

function makeStorage(dialect: Dialect, name: DialectName, directRead?: Storage['directRead']): Storage {
  const db = new Kysely<any>({ dialect });
  return { db, dialect: name, directRead, close: () => db.destroy() };
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

/** True when a string can be a query parameter: PostgreSQL refuses a NUL in text, and no valid name holds one. */
export function isStorableText(value: string): boolean {
  return !value.includes('\0');
}

/** `%text%` with `%`, `_` and the backslash escaped, so `text` matches literally inside `LIKE … ESCAPE '\'`. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `column LIKE '%text%'`, `text` matched literally (case as stored: lower both sides for a case-insensitive match). */
export function containsText(column: Expression<string>, text: string): Expression<SqlBool> {
  return sql<SqlBool>`${column} LIKE ${likeContaining(text)} ESCAPE '\\'`;
}
