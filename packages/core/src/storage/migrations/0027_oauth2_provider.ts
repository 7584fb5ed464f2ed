import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * The OAuth2 provider: authorization codes, grants (one per code exchange, the family its tokens rotate in),
 * access and refresh tokens, and the sign-in sessions of its web pages. Every secret is stored as its SHA-256
 * (hex): codes, tokens and session ids are 256 random bits, so there is nothing to guess.
 */
export const m0027_oauth2_provider: Migration = {
  name: '0027_oauth2_provider',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'oauth2_authorization_code')
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('application_id', 'bigint', (c) => c.notNull())
      .addColumn('uid', 'bigint', (c) => c.notNull())
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('code_challenge', 'varchar(128)', (c) => c.notNull())
      // '', 'S256' or 'plain'.
      .addColumn('code_challenge_method', 'varchar(8)', (c) => c.notNull())
      // The grant its exchange created; 0 while unused. A second exchange revokes that grant.
      .addColumn('grant_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_unix', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth2_authorization_code_hash').unique().on('oauth2_authorization_code').column('code_hash').execute();
    await db.schema.createIndex('oauth2_authorization_code_expires').on('oauth2_authorization_code').column('expires_unix').execute();

    await createTableWithId(db, dialect, 'oauth2_grant')
      .addColumn('application_id', 'bigint', (c) => c.notNull())
      .addColumn('uid', 'bigint', (c) => c.notNull())
      // As requested and consented: space-separated.
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth2_grant_uid').on('oauth2_grant').column('uid').execute();
    await db.schema.createIndex('oauth2_grant_application_id').on('oauth2_grant').column('application_id').execute();

    await createTableWithId(db, dialect, 'oauth2_token')
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('grant_id', 'bigint', (c) => c.notNull())
      .addColumn('uid', 'bigint', (c) => c.notNull())
      // 'access' or 'refresh'.
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      // Space-separated; a refresh may narrow it for the tokens it issues, never widen it.
      .addColumn('scope', 'text', (c) => c.notNull())
      // A refresh token used once (rotated); kept until it expires so that a replay is recognised.
      .addColumn('consumed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_unix', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth2_token_hash').unique().on('oauth2_token').column('token_hash').execute();
    await db.schema.createIndex('oauth2_token_grant_id').on('oauth2_token').column('grant_id').execute();

    await createTableWithId(db, dialect, 'web_session')
      .addColumn('session_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('uid', 'bigint', (c) => c.notNull())
      .addColumn('expires_unix', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('web_session_hash').unique().on('web_session').column('session_hash').execute();
    await db.schema.createIndex('web_session_uid').on('web_session').column('uid').execute();
  },
};
