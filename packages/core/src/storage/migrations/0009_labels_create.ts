import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Issue labels, with Forgejo's `label` columns: a label belongs to a repository (`repo_id`) or to an
 * organization (`org_id`, with `repo_id` 0), so neither column is a foreign key.
 */
export const m0009_labels_create: Migration = {
  name: '0009_labels_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'label')
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('org_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('exclusive', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      // `#rrggbb`.
      .addColumn('color', 'varchar(7)', (c) => c.notNull())
      .addColumn('num_issues', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_closed_issues', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      // 0 unless archived.
      .addColumn('archived_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('label_repo_id').on('label').column('repo_id').execute();
    await db.schema.createIndex('label_org_id').on('label').column('org_id').execute();
  },
};
