import type { Selectable } from 'kysely';

/** A repository being migrated and the job migrating it (gone once it completes, or with the repository). */
export interface RepoMigrationTable {
  repo_id: number;
  job_id: number;
  doer_id: number;
  service: string;
  created_unix: number;
}

export type RepoMigration = Selectable<RepoMigrationTable>;

export interface MigrateTables {
  repo_migration: RepoMigrationTable;
}

declare module '../storage/schema.js' {
  interface Schema extends MigrateTables {}
}
