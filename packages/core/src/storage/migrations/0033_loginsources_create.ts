import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * External login sources (Forgejo's `login_source`): directories that accounts authenticate against instead of a
 * local password. `type` is Forgejo's number (2 LDAP via bind DN, 5 LDAP simple auth); `cfg` the type's settings
 * as JSON, with any bind password encrypted.
 */
export const m0033_loginsources_create: Migration = {
  name: '0033_loginsources_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'login_source')
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_sync_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cfg', 'text', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
  },
};
