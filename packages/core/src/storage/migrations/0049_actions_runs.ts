import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Workflow runs (Forgejo's `action_run`), their jobs (`action_run_job`), the tasks runners took them as
 * (`action_task`), each task's steps, outputs and log lines, and the tasks version a runner compares to skip an idle
 * poll (`action_tasks_version`, one row per scope). A run's `index` counts per repository (`action_run_index`, whose
 * row an insert locks until its transaction ends, so two runs never pick one number); `trigger_key` makes the
 * detection of one event idempotent (a job retried after a crash finds its runs made). Log lines are rows, so every
 * process serving the installation reads and appends them the same way.
 */
export const m0049_actions_runs: Migration = {
  name: '0049_actions_runs',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'action_run')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('index', 'bigint', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('workflow_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('trigger_user_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('schedule_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('ref', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('commit_sha', 'varchar(64)', (c) => c.notNull())
      .addColumn('event', 'varchar(64)', (c) => c.notNull())
      .addColumn('trigger_event', 'varchar(64)', (c) => c.notNull())
      .addColumn('event_payload', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('trigger_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('is_fork_pull_request', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('started', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('stopped', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_run_repo_index').on('action_run').columns(['repo_id', 'index']).unique().execute();
    await db.schema.createIndex('action_run_trigger').on('action_run').columns(['repo_id', 'trigger_key']).unique().execute();
    await db.schema.createIndex('action_run_repo_sha').on('action_run').columns(['repo_id', 'commit_sha']).execute();

    await createTableWithId(db, dialect, 'action_run_job')
      .addColumn('run_id', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('commit_sha', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('job_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('workflow_payload', 'text', (c) => c.notNull())
      .addColumn('needs', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('runs_on', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('task_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('started', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('stopped', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_run_job_run').on('action_run_job').columns(['run_id', 'id']).execute();
    await db.schema.createIndex('action_run_job_status').on('action_run_job').columns(['status', 'id']).execute();
    await db.schema.createIndex('action_run_job_repo').on('action_run_job').columns(['repo_id', 'id']).execute();

    await createTableWithId(db, dialect, 'action_task')
      .addColumn('job_id', 'bigint', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('runner_id', 'bigint', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('started', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('stopped', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('commit_sha', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_salt', 'varchar(32)', (c) => c.notNull())
      .addColumn('token_last_eight', 'varchar(8)', (c) => c.notNull())
      .addColumn('log_length', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('log_size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('log_done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_task_job').on('action_task').columns(['job_id', 'attempt']).unique().execute();
    await db.schema.createIndex('action_task_token').on('action_task').column('token_last_eight').execute();
    await db.schema.createIndex('action_task_runner').on('action_task').columns(['runner_id', 'status']).execute();
    await db.schema.createIndex('action_task_repo').on('action_task').columns(['repo_id', 'id']).execute();

    await createTableWithId(db, dialect, 'action_task_step')
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('index', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('log_index', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('log_length', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('started', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('stopped', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('action_task_step_task').on('action_task_step').columns(['task_id', 'index']).unique().execute();

    await createTableWithId(db, dialect, 'action_task_output')
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('output_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('output_value', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_task_output_key').on('action_task_output').columns(['task_id', 'output_key']).unique().execute();

    await db.schema
      .createTable('action_task_log')
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('line', 'bigint', (c) => c.notNull())
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('action_task_log_pk', ['task_id', 'line'])
      .execute();

    await db.schema
      .createTable('action_run_index')
      .addColumn('repo_id', 'bigint', (c) => c.primaryKey())
      .addColumn('last_index', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('action_tasks_version')
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('action_tasks_version_pk', ['owner_id', 'repo_id'])
      .execute();
  },
};
