import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * SSH public keys (Forgejo's `public_key`). The fingerprint is unique across all keys: one key content
 * authenticates one account (or is one deploy key), never two.
 */
export const m0008_keys_public_keys: Migration = {
  name: '0008_keys_public_keys',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'public_key')
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('fingerprint', 'varchar(255)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('mode', 'integer', (c) => c.notNull().defaultTo(2))
      .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('login_source_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('public_key_fingerprint').on('public_key').column('fingerprint').unique().execute();
    await db.schema.createIndex('public_key_owner_id').on('public_key').column('owner_id').execute();
  },
};
