import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Topics (Forgejo's `topic` and `repo_topic`), per-commit language statistics of the default branch
 * (`language_stat`), and the index repository search orders by.
 */
export const m0007_topics_create: Migration = {
  name: '0007_topics_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'topic')
      // Lower-case, at most 35 characters when valid; 50 as Forgejo sizes the column.
      .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
      .addColumn('repo_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('topic_repo_count').on('topic').column('repo_count').execute();

    await db.schema
      .createTable('repo_topic')
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      .addColumn('topic_id', 'bigint', (c) => c.notNull().references('topic.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('repo_topic_pk', ['repo_id', 'topic_id'])
      .execute();
    await db.schema.createIndex('repo_topic_topic').on('repo_topic').column('topic_id').execute();

    await createTableWithId(db, dialect, 'language_stat')
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      // The default branch's commit the sizes were measured at.
      .addColumn('commit_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('language', 'varchar(50)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('language_stat_repo_language').on('language_stat').columns(['repo_id', 'language']).unique().execute();

    // Search lists repositories by lower-cased name: walking this index yields them in order, so a page needs no sort.
    await db.schema.createIndex('repository_lower_name').on('repository').columns(['lower_name', 'id']).execute();
  },
};
