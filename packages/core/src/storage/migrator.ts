import { Migrator, sql, type Kysely, type Migration as KyselyMigration, type MigrationResult } from 'kysely';
import type { DialectName } from './database.js';
import { MIGRATIONS } from './migrations/index.js';

/** The names of every migration, in order. */
export function migrationNames(): string[] {
  return MIGRATIONS.map((m) => m.name);
}

/** Runs every pending migration; returns the names it applied. Throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  // The common case at start-up: nothing to do. One query instead of the migrator's lock-table round trips.
  if (await isUpToDate(db)) return [];
  const migrations: Record<string, KyselyMigration> = {};
  for (const m of MIGRATIONS) migrations[m.name] = { up: (tx) => m.up(tx, dialect) };
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
    return MIGRATIONS.every((m) => names.has(m.name));
  } catch {
    return false; // no migration table yet
  }
}

/** Whether any migration ran on this database before: false for a new installation's empty one. */
export async function hasMigrated(db: Kysely<any>): Promise<boolean> {
  try {
    return (await db.selectFrom('repohost_migration').select('name').limit(1).execute()).length > 0;
  } catch {
    return false; // no migration table yet
  }
}
