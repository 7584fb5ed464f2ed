import { Migrator, sql, type Kysely, type Migration, type MigrationResult } from 'kysely';
import type { DialectName } from './database.js';
import { usersMigrations } from '../users/tables.js';
import { tokensMigrations } from '../tokens/tables.js';
import { reposMigrations } from '../repos/tables.js';

/** A migration written once for both dialects; `dialect` lets it pick column types where they differ. */
export interface DomainMigration {
  /** Globally ordered name: `NNNN_domain_what`. */
  name: string;
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

/** All migrations in the order they run. Append only: a released migration is never edited. */
export function allMigrations(): DomainMigration[] {
  const all = [...usersMigrations, ...tokensMigrations, ...reposMigrations];
  return all.sort((a, b) => a.name.localeCompare(b.name));
}

/** Runs every pending migration; returns the names it applied. Throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  // The common case at start-up: nothing to do. One query instead of the migrator's lock-table round trips.
  if (await isUpToDate(db)) return [];
  const migrations: Record<string, Migration> = {};
  for (const m of allMigrations()) migrations[m.name] = { up: (tx) => m.up(tx, dialect) };
  // Kysely looks for its bookkeeping tables in every schema unless told which one: name ours (the schema the
  // domain tables go to), or another RepoHost schema in the same PostgreSQL database would be taken for this one.
  let migrationTableSchema: string | undefined;
  if (dialect === 'postgres') {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema ?? undefined;
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'repohost_migration',
    migrationLockTableName: 'repohost_migration_lock',
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${(error as Error).message ?? error}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function isUpToDate(db: Kysely<any>): Promise<boolean> {
  try {
    const applied = await db.selectFrom('repohost_migration').select('name').execute();
    const names = new Set(applied.map((r: { name: string }) => r.name));
    return allMigrations().every((m) => names.has(m.name));
  } catch {
    return false; // no migration table yet
  }
}

/** Starts a table whose first column is an auto-incrementing int64 primary key `id`, in either dialect. */
export function createTableWithId(db: Kysely<any>, dialect: DialectName, table: string) {
  return db.schema
    .createTable(table)
    .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigserial', (c) =>
      dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
    );
}
