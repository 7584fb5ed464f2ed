import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * What a repository is set to beyond its name: its units and their settings, topics, primary language, archive
 * time, trust model, the template it came from, its status; the accounts watching it; pending transfers.
 */
export const m0006_repos_settings: Migration = {
  name: '0006_repos_settings',
  async up(db, dialect) {
    const columns: [string, 'text' | 'bigint' | 'integer' | `varchar(${number})`, string | number][] = [
      // JSON: the enabled units by name with their settings; '' means the defaults.
      ['units', 'text', ''],
      // JSON array of lower-case topic names, kept with the row so a repository reads in one query.
      ['topics', 'text', '[]'],
      ['primary_language', 'varchar(64)', ''],
      ['archived_unix', 'bigint', 0],
      ['trust_model', 'varchar(32)', 'default'],
      ['template_id', 'bigint', 0],
      // 0 ready, 1 being migrated, 2 pending transfer.
      ['status', 'integer', 0],
      ['wiki_branch', 'varchar(255)', ''],
    ];
    for (const [name, type, fallback] of columns) {
      await db.schema.alterTable('repository').addColumn(name, type, (c) => c.notNull().defaultTo(fallback)).execute();
    }

    await createTableWithId(db, dialect, 'watch')
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      // 1 normal, 2 don't, 3 auto (Forgejo's watch modes).
      .addColumn('mode', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('watch_user_repo').on('watch').columns(['user_id', 'repo_id']).unique().execute();
    await db.schema.createIndex('watch_repo').on('watch').column('repo_id').execute();

    await createTableWithId(db, dialect, 'repo_transfer')
      .addColumn('doer_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('recipient_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      // JSON array of team ids (organization recipients).
      .addColumn('team_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('repo_transfer_repo').on('repo_transfer').column('repo_id').unique().execute();
  },
};
