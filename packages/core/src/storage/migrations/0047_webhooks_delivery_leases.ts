import type { Migration } from './kit.js';

/**
 * Webhook deliveries claimed through the database, as jobs and cron runs are: a process takes one attempt of a
 * `hook_task` with a conditional UPDATE that sets `lease_owner` (`host:pid:random`) until `lease_until_unix`, renews
 * it while the request runs, and clears it when it records the attempt; a process that died leaves the lease to
 * expire and another takes the task. `is_redelivery`: the next attempt was asked for through the API (it was kept
 * in one process's memory before, so another process sending it did not say so).
 */
export const m0047_webhooks_delivery_leases: Migration = {
  name: '0047_webhooks_delivery_leases',
  async up(db) {
    // One column per statement: SQLite adds one at a time.
    await db.schema.alterTable('hook_task').addColumn('lease_owner', 'varchar(64)', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('hook_task').addColumn('lease_until_unix', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('hook_task').addColumn('is_redelivery', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
