import type { Generated, Selectable } from 'kysely';
import type { DomainMigration } from '../storage/migrations.js';
import { createTableWithId } from '../storage/migrations.js';

/** 0 individual, 1 organization: organizations share this table, as in Forgejo. */
export const UserType = { Individual: 0, Organization: 1 } as const;
/** Profile visibility, as Forgejo numbers it. */
export const Visibility = { Public: 0, Limited: 1, Private: 2 } as const;
export type VisibilityName = 'public' | 'limited' | 'private';
export const VISIBILITY_NAMES: readonly VisibilityName[] = ['public', 'limited', 'private'];

export interface UserTable {
  id: Generated<number>;
  /** Lower-cased name: the unique key, so names are case-insensitive. */
  lower_name: string;
  name: string;
  full_name: Generated<string>;
  email: string;
  lower_email: string;
  keep_email_private: Generated<number>;
  /** `scrypt$N$r$p$salt$hash`; empty for accounts that cannot sign in with a password. */
  passwd: Generated<string>;
  must_change_password: Generated<number>;
  login_source: Generated<number>;
  login_name: Generated<string>;
  type: Generated<number>;
  visibility: Generated<number>;
  is_admin: Generated<number>;
  is_active: Generated<number>;
  is_restricted: Generated<number>;
  prohibit_login: Generated<number>;
  description: Generated<string>;
  website: Generated<string>;
  location: Generated<string>;
  pronouns: Generated<string>;
  language: Generated<string>;
  /** Counters kept true inside the transaction that changes what they count. */
  num_repos: Generated<number>;
  num_followers: Generated<number>;
  num_following: Generated<number>;
  num_stars: Generated<number>;
  created_unix: number;
  updated_unix: number;
  last_login_unix: Generated<number>;
}

export interface UsersTables {
  user: UserTable;
}

export type User = Selectable<UserTable>;

export const usersMigrations: DomainMigration[] = [
  {
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
  },
];
