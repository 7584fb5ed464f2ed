import type { Migration } from './kit.js';

/**
 * Where each account last signed in successfully: one row per (account, client network), keyed by a digest of
 * both. An address known to an account keeps its access while strangers' failures throttle everyone else.
 */
export const m0038_security_known_sign_ins: Migration = {
  name: '0038_security_known_sign_ins',
  async up(db) {
    await db.schema
      .createTable('sign_in_known')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('signed_in_unix', 'bigint', (c) => c.notNull())
      .execute();
    // Forgotten by age.
    await db.schema.createIndex('sign_in_known_signed_in').on('sign_in_known').column('signed_in_unix').execute();
  },
};
