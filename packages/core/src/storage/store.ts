import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Storage } from './database.js';
import type { Page } from '../paging.js';

/** A store class: constructed by a scope, which hands it the executor (the database or an open transaction). */
export type StoreClass<S> = new (scope: StoreScope) => S;

/**
 * A domain's port: the one class other domains use to read or write what that domain owns, built over the
 * caller's scope (the database or its open transaction) like a store. The domain's stores stay private behind it.
 */
export type PortClass<P> = new (scope: StoreScope) => P;

interface Precompiled<Name extends string> {
  sql: string;
  slots: Name[];
}

/** The most values of one list `precompiledIn` binds in one query, and the names its slots take. */
const IN_LIST_CHUNK = 128;
const IN_LIST_SLOT = '\u0001list:';

/** Compiled SQL per store class and query name, shared by every scope of one storage. */
const compiledQueries = new WeakMap<Storage, WeakMap<Function, Map<string, Precompiled<string>>>>();

/**
 * Where stores run: the database itself, or one transaction. A scope builds each store class at most once, so
 * `scope.store(UsersStore)` is cheap to call wherever a store is needed.
 */
export class StoreScope {
  private readonly stores = new Map<Function, unknown>();

  constructor(
    readonly storage: Storage,
    /** The executor stores use: `storage.db`, or the transaction. */
    readonly db: Kysely<any>,
    /** `[repohost] LEASE_SECONDS` of the host: how long a claim its stores write (a git intent) lasts unless renewed. */
    readonly leaseSeconds: number,
  ) {}

  get inTransaction(): boolean {
    return this.db.isTransaction;
  }

  store<S>(cls: StoreClass<S>): S {
    let store = this.stores.get(cls) as S | undefined;
    if (!store) {
      store = new cls(this);
      this.stores.set(cls, store);
    }
    return store;
  }

  /** The compiled form of a query, built on first use and kept for the life of the storage. */
  compiled<Name extends string>(owner: Function, key: string, compile: () => Precompiled<Name>): Precompiled<Name> {
    let byClass = compiledQueries.get(this.storage);
    if (!byClass) compiledQueries.set(this.storage, (byClass = new WeakMap()));
    let byKey = byClass.get(owner);
    if (!byKey) byClass.set(owner, (byKey = new Map()));
    let query = byKey.get(key) as Precompiled<Name> | undefined;
    if (!query) byKey.set(key, (query = compile()));
    return query;
  }

  async run<Row>(query: Precompiled<string>, values: Record<string, unknown>): Promise<Row[]> {
    const parameters = query.slots.map((name) => values[name]);
    // Outside a transaction SQLite answers synchronously on its one connection; inside one the read must go
    // through the transaction, or it would wait for the connection the transaction itself holds.
    if (!this.inTransaction) {
      const direct = this.storage.directRead?.(query.sql, parameters);
      if (direct) return direct as Row[];
    }
    return (await this.db.executeQuery<Row>(CompiledQuery.raw(query.sql, parameters))).rows;
  }
}

/**
 * A domain's access to its own tables. `Tables` lists them; the executor is typed with those tables only, so a
 * store cannot reach another domain's tables by accident. Stores built from a transaction scope run inside it,
 * so several domains' stores compose in one transaction.
 */
export abstract class Store<Tables> {
  protected readonly db: Kysely<Tables>;

  constructor(protected readonly scope: StoreScope) {
    this.db = scope.db as Kysely<Tables>;
  }

  /**
   * A hot read built once with Kysely's typed builder and compiled once per storage; each run only binds new
   * values (and on SQLite runs directly on a cached statement). `build` receives `param(name)`, which stands for
   * a value supplied at run time.
   */
  protected precompiled<Row, Name extends string>(
    key: string,
    // `param` yields a marker string at build time; typed `never` so it fits a column of any type.
    build: (db: Kysely<Tables>, param: (name: Name) => never) => Compilable<Row>,
  ): (values: Record<Name, unknown>) => Promise<Row[]> {
    const query = this.scope.compiled<Name>(this.constructor, key, () => this.compile(key, build));
    return (values) => this.scope.run<Row>(query, values);
  }

  /**
   * A precompiled read of the rows matching a list of values (`build` receives the list as `list`, for a
   * `where(column, 'in', list)`), of any length, and of other values as `precompiled` takes them: a page's batch
   * reads then bind values instead of building and compiling their SQL each time (a few µs a query). The SQL is
   * compiled once per length bucket (1, 2, 4 … 128), the list padded to its bucket by repeating its last value,
   * which `in` does not see. Repeated values are read once; a longer list is read in chunks of 128, each chunk's rows
   * in the query's order.
   */
  protected precompiledIn<Row, Name extends string = never>(
    key: string,
    build: (db: Kysely<Tables>, list: never[], param: (name: Name) => never) => Compilable<Row>,
  ): (list: readonly unknown[], values?: Record<Name, unknown>) => Promise<Row[]> {
    return async (given, values) => {
      const list = [...new Set(given)];
      const rows: Row[] = [];
      for (let start = 0; start < list.length; start += IN_LIST_CHUNK) {
        const chunk = list.slice(start, start + IN_LIST_CHUNK);
        let size = 1;
        while (size < chunk.length) size *= 2;
        const query = this.scope.compiled<string>(this.constructor, `${key}#${size}`, () =>
          this.compile(key, (db, param) => build(db, Array.from({ length: size }, (_, i) => param(`${IN_LIST_SLOT}${i}` as Name)), param)),
        );
        const bound: Record<string, unknown> = { ...values };
        for (let i = 0; i < size; i++) bound[`${IN_LIST_SLOT}${i}`] = chunk[Math.min(i, chunk.length - 1)];
        const found = await this.scope.run<Row>(query, bound);
        for (const row of found) rows.push(row);
      }
      return rows;
    };
  }

  private compile<Row, Name extends string>(key: string, build: (db: Kysely<Tables>, param: (name: Name) => never) => Compilable<Row>): Precompiled<Name> {
    const prefix = '\u0000param:';
    const compiled = build(this.scope.storage.db as Kysely<Tables>, (name) => `${prefix}${name}` as never).compile();
    const slots = compiled.parameters.map((value) => {
      if (typeof value !== 'string' || !value.startsWith(prefix)) throw new Error(`precompiled ${key}: every parameter must come from param()`);
      return value.slice(prefix.length) as Name;
    });
    return { sql: compiled.sql, slots };
  }

  /** `count(*)` of a query's rows as a number (PostgreSQL returns it as a string). */
  protected static count(row: { n: number | string | bigint } | undefined): number {
    return Number(row?.n ?? 0);
  }

  /** A page of rows and the count of the whole list, queried side by side. */
  protected static async page<Row>(rows: Promise<Row[]>, count: Promise<{ n: number | string | bigint } | undefined>): Promise<Page<Row>> {
    const [items, total] = await Promise.all([rows, count]);
    return { items, total: Store.count(total) };
  }
}
