import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Federation (`[federation] ENABLED`): the RSA key pairs local accounts and the instance actor sign with (Forgejo keeps
 * them in user settings as `activitypub_privpem`/`pubpem`; the private key is stored encrypted here), the instances
 * RepoHost has met (`federation_host`, with the instance actor's key once seen), and the accounts of other instances
 * that acted here (`federated_user`: a local account of their own, the key their activities are signed with), and
 * which of them follow a local account (`federated_user_follower`).
 */
export const m0054_federation_create: Migration = {
  name: '0054_federation_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'federation_keypair')
      // The account the pair belongs to; 0 for the instance actor.
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('public_pem', 'text', (c) => c.notNull())
      .addColumn('private_pem_encrypted', 'text', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('federation_keypair_owner').on('federation_keypair').column('owner_id').unique().execute();

    await createTableWithId(db, dialect, 'federation_host')
      .addColumn('host_fqdn', 'varchar(255)', (c) => c.notNull())
      .addColumn('host_port', 'integer', (c) => c.notNull())
      .addColumn('host_schema', 'varchar(8)', (c) => c.notNull())
      .addColumn('software_name', 'varchar(255)', (c) => c.notNull())
      // The start time of the latest activity accepted from the instance: older ones are refused.
      .addColumn('latest_activity', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('key_id', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
      .addColumn('public_key', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('federation_host_address').on('federation_host').columns(['host_fqdn', 'host_port']).unique().execute();
    await db.schema.createIndex('federation_host_key').on('federation_host').column('key_id').execute();

    await createTableWithId(db, dialect, 'federated_user')
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('federation_host_id', 'bigint', (c) => c.notNull())
      .addColumn('external_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('original_url', 'varchar(2048)', (c) => c.notNull())
      .addColumn('inbox_url', 'varchar(2048)', (c) => c.notNull())
      .addColumn('key_id', 'varchar(2048)', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      // When the key was last fetched again because a signature did not verify with it (a rotated key).
      .addColumn('key_refreshed_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('federated_user_external').on('federated_user').columns(['federation_host_id', 'external_id']).unique().execute();
    await db.schema.createIndex('federated_user_user').on('federated_user').column('user_id').unique().execute();
    await db.schema.createIndex('federated_user_key').on('federated_user').column('key_id').execute();

    // Accounts of other instances following a local account (Forgejo's `federated_user_follower`).
    await createTableWithId(db, dialect, 'federated_user_follower')
      .addColumn('followed_user_id', 'bigint', (c) => c.notNull())
      .addColumn('federated_user_id', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('federated_user_follower_pair').on('federated_user_follower').columns(['followed_user_id', 'federated_user_id']).unique().execute();
    await db.schema.createIndex('federated_user_follower_follower').on('federated_user_follower').column('federated_user_id').execute();
  },
};
