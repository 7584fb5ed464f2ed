import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Forgejo's `pull_auto_merge` table: a merge scheduled to run once the head commit's checks succeed, at most one
 * per pull request. `merge_style` is the style asked for, `message` the whole commit message (title and body).
 */
export const m0032_pulls_auto_merge: Migration = {
  name: '0032_pulls_auto_merge',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'pull_auto_merge')
      .addColumn('pull_id', 'bigint', (c) => c.notNull().references('pull_request.id').onDelete('cascade'))
      .addColumn('doer_id', 'bigint', (c) => c.notNull())
      .addColumn('merge_style', 'varchar(30)', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('delete_branch_after_merge', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pull_auto_merge_pull_id').on('pull_auto_merge').column('pull_id').unique().execute();
  },
};
