import type { Insertable } from 'kysely';
import { Store } from '../storage/index.js';
import type { MigrateTables, RepoMigration, RepoMigrationTable } from './tables.js';

/** The `repo_migration` table: migrations in progress. */
export class MigrationsStore extends Store<MigrateTables> {
  async insert(row: Insertable<RepoMigrationTable>): Promise<void> {
    await this.db.insertInto('repo_migration').values(row).execute();
  }

  async setJob(repoId: number, jobId: number): Promise<void> {
    await this.db.updateTable('repo_migration').set({ job_id: jobId }).where('repo_id', '=', repoId).execute();
  }

  find(repoId: number): Promise<RepoMigration | undefined> {
    return this.db.selectFrom('repo_migration').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
  }

  async delete(repoId: number): Promise<void> {
    await this.db.deleteFrom('repo_migration').where('repo_id', '=', repoId).execute();
  }

  all(): Promise<RepoMigration[]> {
    return this.db.selectFrom('repo_migration').selectAll().orderBy('repo_id').execute();
  }
}
