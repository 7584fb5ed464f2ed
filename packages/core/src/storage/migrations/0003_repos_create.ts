import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

export const m0003_repos_create: Migration = {
  name: '0003_repos_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'repository')
      .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('restrict'))
      .addColumn('lower_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('website', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
      .addColumn('original_url', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
      .addColumn('default_branch', 'varchar(255)', (c) => c.notNull())
      .addColumn('object_format_name', 'varchar(6)', (c) => c.notNull().defaultTo('sha1'))
      .addColumn('is_private', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_empty', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_archived', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_mirror', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_fork', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('fork_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('is_template', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('num_stars', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_forks', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_watches', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_issues', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_closed_issues', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_pulls', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_closed_pulls', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_releases', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('repository_owner_lower_name').on('repository').columns(['owner_id', 'lower_name']).unique().execute();
    await db.schema.createIndex('repository_is_private').on('repository').column('is_private').execute();
  },
};
