/**
 * Everything a migration may use besides Kysely. Migrations are frozen in time: they import this kit and
 * Kysely only, never a domain file, so that later changes to the domains cannot change what an old migration does.
 */
import type { Kysely } from 'kysely';

export type MigrationDialect = 'sqlite' | 'postgres';

/** A migration written once for both dialects; `dialect` lets it pick column types where they differ. */
export interface Migration {
  /** Globally ordered name: `NNNN_domain_what`. Recorded in the database, so never renamed. */
  readonly name: string;
  up(db: Kysely<any>, dialect: MigrationDialect): Promise<void>;
}

/** Starts a table whose first column is an auto-incrementing int64 primary key `id`, in either dialect. */
export function createTableWithId(db: Kysely<any>, dialect: MigrationDialect, table: string) {
  return db.schema
    .createTable(table)
    .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigserial', (c) =>
      dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    );
}
