import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Workflow artifacts (Forgejo's `action_artifact`): one row per artifact a task uploaded, its zip in the
 * `actions_artifacts` blob space, with its state (uploading, confirmed, expired, marked for deletion, deleted) and
 * when it expires. `action_artifact_block` holds the blocks of an upload under way (the Azure block protocol that
 * `@actions/artifact` speaks) until the finalize assembles them in the committed order; `block_list` is that order.
 */
export const m0050_actions_artifacts: Migration = {
  name: '0050_actions_artifacts',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'action_artifact')
      .addColumn('run_id', 'bigint', (c) => c.notNull())
      .addColumn('runner_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('commit_sha', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('storage_path', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('file_size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('file_compressed_size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('content_encoding', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('artifact_path', 'varchar(255)', (c) => c.notNull())
      .addColumn('artifact_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('block_list', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('hash_sha256', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .addColumn('expired_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_artifact_run_name_path').on('action_artifact').columns(['run_id', 'artifact_name', 'artifact_path']).unique().execute();
    await db.schema.createIndex('action_artifact_repo').on('action_artifact').columns(['repo_id', 'id']).execute();
    await db.schema.createIndex('action_artifact_owner').on('action_artifact').columns(['owner_id', 'status']).execute();
    await db.schema.createIndex('action_artifact_status_expired').on('action_artifact').columns(['status', 'expired_unix']).execute();

    await db.schema
      .createTable('action_artifact_block')
      .addColumn('artifact_id', 'bigint', (c) => c.notNull())
      .addColumn('block_key', 'varchar(64)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('action_artifact_block_pk', ['artifact_id', 'block_key'])
      .execute();
  },
};
