import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Deploy keys and GPG keys.
 *
 * `deploy_key` ties a `public_key` row of type 2 (deploy) to a repository, with the mode it grants there: one key
 * may be a deploy key of several repositories (one `public_key` row, several `deploy_key` rows), never twice of
 * the same one, and its title is unique within a repository.
 *
 * `gpg_key` holds one row per primary key and one per subkey (`primary_key_id` names the primary; empty on the
 * primary itself), so a signature's issuer key id finds its key by `key_id` alone. `content` is the base64 of the
 * key's public-key packet; `emails` the JSON list of the addresses of its unrevoked user ids. `gpg_key_import`
 * keeps each primary key's whole public key (armored), to verify signatures with later.
 */
export const m0013_keys_deploy_gpg: Migration = {
  name: '0013_keys_deploy_gpg',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'deploy_key')
      .addColumn('key_id', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('fingerprint', 'varchar(255)', (c) => c.notNull())
      .addColumn('mode', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('deploy_key_key_repo').on('deploy_key').columns(['key_id', 'repo_id']).unique().execute();
    await db.schema.createIndex('deploy_key_repo_name').on('deploy_key').columns(['repo_id', 'name']).unique().execute();

    await createTableWithId(db, dialect, 'gpg_key')
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('key_id', 'varchar(16)', (c) => c.notNull())
      .addColumn('primary_key_id', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('emails', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('can_sign', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('can_encrypt_comms', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('can_encrypt_storage', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('can_certify', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('expired_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('added_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('gpg_key_key_id').on('gpg_key').column('key_id').unique().execute();
    await db.schema.createIndex('gpg_key_owner_primary').on('gpg_key').columns(['owner_id', 'primary_key_id']).execute();
    await db.schema.createIndex('gpg_key_primary_key_id').on('gpg_key').column('primary_key_id').execute();

    await db.schema
      .createTable('gpg_key_import')
      .addColumn('key_id', 'varchar(16)', (c) => c.primaryKey())
      .addColumn('content', 'text', (c) => c.notNull())
      .execute();
  },
};
