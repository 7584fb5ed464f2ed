import type { Migration } from './kit.js';

/**
 * API rate limit counters (`[api.ratelimit]`), one row per resource and caller (`core:user:12`, `git:ip:192.0.2.7`)
 * shared by every process on the database: when its window began, how many calls every process together has
 * claimed in it, and what the last claim was granted. A process claims calls in slices and counts them locally, so
 * a row is written once per slice, not once per call. A window that ended starts afresh in place; rows untouched
 * for longer than a window are deleted by `cleanup_rate_limits`.
 */
export const m0056_ratelimit_create: Migration = {
  name: '0056_ratelimit_create',
  async up(db) {
    await db.schema
      .createTable('rate_limit')
      .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
      .addColumn('window_start_unix', 'bigint', (c) => c.notNull())
      .addColumn('claimed', 'integer', (c) => c.notNull())
      .addColumn('granted', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('rate_limit_window_start').on('rate_limit').column('window_start_unix').execute();
  },
};
