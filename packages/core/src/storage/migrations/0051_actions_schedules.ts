import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Scheduled workflows (Forgejo's `action_schedule` and `action_schedule_spec`): a workflow of a repository's default
 * branch that declares `schedule`, kept with its content, and each of its cron specs with the next time it is due.
 * `action_schedules_suspended` holds one row while `[actions] ENABLED` is off and the plans were removed for it, so
 * the start that finds Actions on again creates them again.
 */
export const m0051_actions_schedules: Migration = {
  name: '0051_actions_schedules',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'action_schedule')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('workflow_dir', 'varchar(64)', (c) => c.notNull())
      .addColumn('workflow_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('trigger_user_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('ref', 'varchar(255)', (c) => c.notNull())
      .addColumn('commit_sha', 'varchar(64)', (c) => c.notNull())
      .addColumn('event_payload', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_schedule_repo').on('action_schedule').column('repo_id').execute();

    await createTableWithId(db, dialect, 'action_schedule_spec')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('schedule_id', 'bigint', (c) => c.notNull())
      .addColumn('spec', 'varchar(255)', (c) => c.notNull())
      .addColumn('next', 'bigint', (c) => c.notNull())
      .addColumn('prev', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('action_schedule_spec_next').on('action_schedule_spec').columns(['next', 'id']).execute();
    await db.schema.createIndex('action_schedule_spec_repo').on('action_schedule_spec').column('repo_id').execute();

    await db.schema
      .createTable('action_schedules_suspended')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('since', 'bigint', (c) => c.notNull())
      .execute();
  },
};
