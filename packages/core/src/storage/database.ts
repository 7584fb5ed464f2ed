import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Dialect,
  type Driver,
  type Expression,
  type QueryResult,
  type SchemaMetadata,
  type SqlBool,
  type TableMetadata,
  type TransactionSettings,
} from 'kysely';
import type { Settings } from '../config/index.js';
import { BoundedMap } from '../bounded-map.js';
import { guardedPool } from './postgres-pool.js';
import { isContention } from './contention.js';
import { UnavailableError } from '../errors.js';

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
  /**
   * SQLite only: runs `script` (statements separated by semicolons) in one immediate transaction if the database has
   * no table yet, and says whether it did. False, having done nothing, when there is a table or another process holds
   * the write lock. For the migrator's schema snapshot (migrator.ts).
   */
  readonly createSchemaIfEmpty?: (script: string) => Promise<boolean>;
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
  // How long a statement may wait for another process's write lock in all, asynchronously (see SqliteDriver).
  const lockWaitMs = Math.max(settings.SQLITE_TIMEOUT, 5000);
  // Opening may wait that long synchronously: nothing is served yet, and a second process setting WAL mode or
  // reading the schema while the first writes must not fail.
  const sqlite = new SqliteDatabase(settings.PATH, { timeout: lockWaitMs });
  if (settings.PATH !== ':memory:') sqlite.pragma(`journal_mode = ${settings.SQLITE_JOURNAL_MODE || 'WAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // From now on SQLite's own busy handler, which sleeps the thread, waits a moment only; longer waits are the
  // driver's, off the event loop.
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_SLICE_MS}`);
  const database = cachingStatements(sqlite);
  // better-sqlite3 runs a statement to completion synchronously, so outside a transaction a direct read cannot
  // interleave with anything Kysely is doing on the same connection; inside one it must wait its turn. A read that
  // finds the database busy (another process recovering its WAL) goes through Kysely too, which waits for it.
  const directRead = (sql: string, parameters: readonly unknown[]) => {
    if (sqlite.inTransaction) return undefined;
    try {
      return database.prepare(sql).all(parameters);
    } catch (error) {
      if (isContention(error)) return undefined;
      throw error;
    }
  };
  const driver = new SqliteDriver(sqlite, database, lockWaitMs);
  const storage = makeStorage(new SqliteDriverDialect(database, driver), 'sqlite', directRead);
  return { ...storage, createSchemaIfEmpty: (script) => driver.createSchemaIfEmpty(script) };
}

/**
 * SQLite with several processes on one file (`repohost web --workers N`, several servers on one machine, `repohost
 * serv` beside the server). WAL lets readers go on while one process writes, but writers take turns on one lock, and
 * better-sqlite3 is synchronous: left to SQLite's busy handler, a statement waiting for another process's lock would
 * hold the whole event loop (every request of this process) for up to the busy timeout. So:
 *
 * - SQLite's busy handler waits `SQLITE_BUSY_SLICE_MS` at most; when the lock is still taken, the statement is
 *   tried again after an asynchronous pause (growing, with jitter), until it runs or `lockWaitMs` have passed in
 *   all, which ends in an `UnavailableError` (503 with Retry-After), never a 500. A statement that failed with
 *   SQLITE_BUSY outside a transaction changed nothing, so trying it again is safe.
 * - While it waits, the connection is given back, so this process's reads (and transactions) go on meanwhile.
 * - Transactions begin IMMEDIATE: they take the write lock first (waiting as above), so a transaction that reads
 *   and then writes cannot fail with SQLITE_BUSY_SNAPSHOT (another process wrote since its read: no wait cures
 *   that). A transaction asked for as `accessMode: 'read only'` begins DEFERRED and takes no lock.
 *
 * Kysely's own SqliteDriver is the same otherwise (one connection, taken in turn, statements run synchronously).
 */
class SqliteDriver implements Driver {
  private readonly turns = new Turns();
  private readonly connection: SqliteConnection;

  constructor(
    private readonly sqlite: BetterSqlite,
    statements: StatementSource,
    lockWaitMs: number,
  ) {
    this.connection = new SqliteConnection(sqlite, statements, this.turns, lockWaitMs);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.turns.take();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(settings.accessMode === 'read only' ? BEGIN_DEFERRED : BEGIN_IMMEDIATE);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(COMMIT);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(ROLLBACK);
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdent(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdent(name)}`));
  }

  async releaseConnection(): Promise<void> {
    this.turns.give();
  }

  /**
   * See `Storage.createSchemaIfEmpty`. better-sqlite3's `exec` runs the whole script in one call, without preparing
   * (and caching) a statement per line as Kysely would; the connection is taken in turn like any query's.
   */
  async createSchemaIfEmpty(script: string): Promise<boolean> {
    await this.turns.take();
    try {
      if (this.sqlite.inTransaction) return false;
      try {
        this.sqlite.exec('begin immediate');
      } catch (error) {
        if (isContention(error)) return false; // another process is writing: the migrator waits for it instead
        throw error;
      }
      try {
        // Checked under the write lock: two processes opening one new file cannot both create the schema.
        if (this.sqlite.prepare("select 1 from sqlite_master where type = 'table' limit 1").get() !== undefined) {
          this.sqlite.exec('rollback');
          return false;
        }
        this.sqlite.exec(script);
        this.sqlite.exec('commit');
        return true;
      } catch (error) {
        if (this.sqlite.inTransaction) this.sqlite.exec('rollback');
        throw error;
      }
    } finally {
      this.turns.give();
    }
  }

  async destroy(): Promise<void> {
    this.sqlite.close();
  }
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const BEGIN_DEFERRED = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * Longest time (ms) SQLite's busy handler may sleep the thread, per attempt, for a lock another process holds: a
 * write lock is usually released within it (a commit in WAL mode takes well under a millisecond), and no request of
 * this process waits longer than that for another's statement.
 */
export const SQLITE_BUSY_SLICE_MS = 2;
/** Longest asynchronous pause (ms) between two attempts at a busy lock (before jitter). */
const SQLITE_BUSY_PAUSE_MAX_MS = 25;

/** The connection, taken by one user at a time, first come first served. */
class Turns {
  private taken = false;
  private readonly waiting: (() => void)[] = [];

  take(): Promise<void> {
    if (!this.taken) {
      this.taken = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.taken = false;
  }
}

interface StatementSource {
  prepare(sql: string): KeptStatement;
}

class SqliteConnection implements DatabaseConnection {
  constructor(
    private readonly sqlite: BetterSqlite,
    private readonly statements: StatementSource,
    private readonly turns: Turns,
    private readonly lockWaitMs: number,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    let deadline: number | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        return this.run<R>(query);
      } catch (error) {
        if (!isContention(error)) throw error;
        // Inside a transaction a statement cannot be tried alone again (and an IMMEDIATE one holds the lock: only
        // a DEFERRED one that writes gets here); the transaction rolls back with a retryable error.
        if (this.sqlite.inTransaction) throw busy(error);
        const now = performance.now();
        deadline ??= now + this.lockWaitMs;
        if (now >= deadline) throw busy(error);
        const pause = Math.min(deadline - now, Math.min(SQLITE_BUSY_PAUSE_MAX_MS, 2 ** attempt) * (0.5 + Math.random()));
        // Others of this process use the connection meanwhile; it is taken back (in turn) before the next attempt.
        this.turns.give();
        await new Promise((resolve) => setTimeout(resolve, pause));
        await this.turns.take();
      }
    }
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.statements.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.statements.prepare(query.sql);
    if (!statement.reader) throw new Error('the SQLite driver streams only queries that return rows');
    for (const row of statement.iterate(query.parameters)) yield { rows: [row as R] };
  }
}

function busy(error: unknown): UnavailableError {
  const unavailable = new UnavailableError(`the database is busy (another process holds its write lock): ${(error as Error).message}; try again shortly`, 1);
  // For `isContention`: the driver's SQLITE_BUSY stays readable behind the 503.
  unavailable.cause = error;
  return unavailable;
}

/** Kysely's SQLite dialect (its query compiler, adapter and introspector) over the driver above. */
class SqliteDriverDialect extends SqliteDialect {
  constructor(
    database: ReturnType<typeof cachingStatements>,
    private readonly driver: SqliteDriver,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return this.driver;
  }
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

/** A statement kept for its SQL text, in the shape Kysely's SQLite dialect expects of one. */
interface KeptStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
}

/**
 * Kysely prepares every query anew; preparing costs more than running our indexed lookups, so statements are
 * kept per SQL text. better-sqlite3 runs each statement to completion synchronously, so sharing one is safe.
 */
function cachingStatements(sqlite: BetterSqlite, capacity = 500) {
  const statements = new BoundedMap<string, KeptStatement>(capacity);
  return {
    close: () => sqlite.close(),
    prepare(sql: string): KeptStatement {
      let statement = statements.get(sql);
      if (!statement) {
        statement = keptStatement(sqlite.prepare(sql));
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Rows of a reading statement come from better-sqlite3 as arrays and are made objects here, by a function compiled
 * for the statement's columns: better-sqlite3 sets each column on its row object through V8's API, about 0.25 µs a
 * column (an account row of 39 columns 11.6 µs, 20 issue rows 133 µs); an object literal builds the same row in
 * under half that (7.3 and 82 µs), every row of a statement with one shape.
 */
function keptStatement(statement: ReturnType<BetterSqlite['prepare']>): KeptStatement {
  const run = (parameters: readonly unknown[]) => statement.run(parameters as unknown[]);
  if (!statement.reader) {
    const notReader = () => {
      throw new Error('the statement returns no rows');
    };
    return { reader: false, all: notReader, iterate: notReader, run };
  }
  statement.raw(true);
  const build = rowBuilder(statement.columns().map((column) => column.name));
  return {
    reader: true,
    all(parameters) {
      const rows = statement.all(parameters as unknown[]) as unknown[][];
      const objects = new Array<unknown>(rows.length);
      for (let i = 0; i < rows.length; i++) objects[i] = build(rows[i]!);
      return objects;
    },
    *iterate(parameters) {
      for (const values of statement.iterate(parameters as unknown[])) yield build(values as unknown[]);
    },
    run,
  };
}

/**
 * `values => ({ "col": values[0], … })` for these column names, as better-sqlite3's own rows are: keys in column
 * order, a repeated name keeping its first place and its last value (as in an object literal). Names are JSON-quoted;
 * `__proto__` is a computed key, which defines a property instead of setting the prototype.
 */
function rowBuilder(names: readonly string[]): (values: readonly unknown[]) => Record<string, unknown> {
  const fields = names.map((name, i) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: values[${i}]`);
  return new Function('values', `return { ${fields.join(', ')} };`) as (values: readonly unknown[]) => Record<string, unknown>;
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
