import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

export const m0001_users_create: Migration = {
  name: '0001_users_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'user')
      .addColumn('lower_name', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('full_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('email', 'varchar(255)', (c) => c.notNull())
      .addColumn('lower_email', 'varchar(255)', (c) => c.notNull())
      .addColumn('keep_email_private', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('passwd', 'varchar(512)', (c) => c.notNull().defaultTo(''))
      .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('login_source', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('login_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('visibility', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_restricted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('prohibit_login', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('website', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
      .addColumn('location', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('pronouns', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('language', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('num_repos', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_followers', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_following', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('num_stars', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .addColumn('last_login_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('user_lower_email').on('user').column('lower_email').unique().execute();
    await db.schema.createIndex('user_is_admin').on('user').column('is_admin').execute();
  },
};
