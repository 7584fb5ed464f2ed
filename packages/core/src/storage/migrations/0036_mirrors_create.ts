import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Pull mirrors (Forgejo's `mirror`): one row per mirror repository, deleted with it. `interval_seconds` 0 means
 * no scheduled sync; `next_update_unix` 0 means none is due. `remote_address` is the address without credentials
 * (what `original_url` shows); `remote_credentials` holds them encrypted under `[security] SECRET_KEY` ('' for none).
 * `repo_migration`: a repository still being migrated and the job doing it; deleted when the migration completes
 * (or with the repository when it fails), so a row left at start-up names an interrupted migration.
 */
export const m0036_mirrors_create: Migration = {
  name: '0036_mirrors_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'mirror')
      .addColumn('repo_id', 'bigint', (c) => c.notNull().unique().references('repository.id').onDelete('cascade'))
      .addColumn('interval_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('enable_prune', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('updated_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('next_update_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('remote_address', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('remote_credentials', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('lfs_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lfs_endpoint', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('mirror_next_update').on('mirror').column('next_update_unix').execute();

    await db.schema
      .createTable('repo_migration')
      .addColumn('repo_id', 'bigint', (c) => c.primaryKey().references('repository.id').onDelete('cascade'))
      .addColumn('job_id', 'bigint', (c) => c.notNull())
      .addColumn('doer_id', 'bigint', (c) => c.notNull())
      .addColumn('service', 'varchar(32)', (c) => c.notNull().defaultTo('git'))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
  },
};
