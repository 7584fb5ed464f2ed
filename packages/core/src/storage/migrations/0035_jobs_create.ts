import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Durable background work. `job`: one-off jobs (a mirror sync, a migration), claimed by one process at a time
 * through a lease (`lease_owner` until `lease_until_unix`) that a crashed process lets expire. `key` ('' for
 * none) groups jobs of one kind that must not run at once and deduplicates queued ones. `cron_task`: the
 * durable state of each recurring task (when it runs next, when it last ran, how often), claimed the same way.
 */
export const m0035_jobs_create: Migration = {
  name: '0035_jobs_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'job')
      .addColumn('kind', 'varchar(100)', (c) => c.notNull())
      .addColumn('key', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_after_unix', 'bigint', (c) => c.notNull())
      .addColumn('lease_owner', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('lease_until_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('progress_done', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('progress_total', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('progress_message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .addColumn('finished_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('job_status_run_after').on('job').columns(['status', 'run_after_unix']).execute();
    await db.schema.createIndex('job_kind_key').on('job').columns(['kind', 'key']).execute();
    await db.schema.createIndex('job_finished').on('job').column('finished_unix').execute();

    await db.schema
      .createTable('cron_task')
      .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('next_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('prev_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('exec_times', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('schedule', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('lease_owner', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('lease_until_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('updated_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
