import type { Migration } from './kit.js';

/**
 * Failed sign-in counters, keyed by what was tried (`account:<login>`) or where from (`address:<ip>`). Kept in
 * the database so every server process sharing it sees the same counts.
 */
export const m0005_security_sign_in_failures: Migration = {
  name: '0005_security_sign_in_failures',
  async up(db) {
    await db.schema
      .createTable('sign_in_failure')
      .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
      .addColumn('window_start_unix', 'bigint', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .execute();
    // Expired windows are deleted by age.
    await db.schema.createIndex('sign_in_failure_window_start').on('sign_in_failure').column('window_start_unix').execute();
  },
};
