import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * OAuth2 applications (Forgejo's `oauth2_application`): what a user registers so that a third-party client can
 * ask them for access. The OAuth2 provider reads `client_id`, the secret's hash, the redirect URIs and
 * `confidential_client`.
 */
export const m0020_oauth2_applications: Migration = {
  name: '0020_oauth2_applications',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'oauth2_application')
      .addColumn('uid', 'bigint', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      // A random UUID: public, names the client to the provider.
      .addColumn('client_id', 'varchar(36)', (c) => c.notNull())
      // SHA-256 (hex) of the current secret; empty until one is generated. The secret itself is never stored.
      .addColumn('client_secret_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('confidential_client', 'integer', (c) => c.notNull().defaultTo(0))
      // JSON array of strings, in the order given.
      .addColumn('redirect_uris', 'text', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth2_application_client_id').unique().on('oauth2_application').column('client_id').execute();
    await db.schema.createIndex('oauth2_application_uid').on('oauth2_application').column('uid').execute();
  },
};
