import type { Migration } from './kit.js';

/**
 * Named locks shared by every process on the database (`storage/locks.ts`): a row per lock held, by `owner` (the
 * process, `host:pid:random`) under `token` (one acquisition) until `lease_until_unix`, renewed while held and deleted
 * on release. A row whose lease expired (its process died) is taken over by the next process that asks.
 */
export const m0046_storage_locks: Migration = {
  name: '0046_storage_locks',
  async up(db) {
    await db.schema
      .createTable('named_lock')
      .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('owner', 'varchar(100)', (c) => c.notNull())
      .addColumn('token', 'varchar(32)', (c) => c.notNull())
      .addColumn('lease_until_unix', 'bigint', (c) => c.notNull())
      .addColumn('acquired_unix', 'bigint', (c) => c.notNull())
      .execute();
  },
};
