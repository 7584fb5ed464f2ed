import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Runner registration tokens (Forgejo's `action_runner_token`) and runners (`action_runner`) of the instance
 * (`owner_id` and `repo_id` 0), of an account (`owner_id`) or of a repository (`repo_id`). A registration token is
 * kept encrypted and found by its SHA-256 (`token_hash`, unique); a scope's latest row is its token. A runner's own
 * token is kept only as a salted hash; the runner is found by its `uuid`.
 */
export const m0044_actions_runners: Migration = {
  name: '0044_actions_runners',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'action_runner_token')
      .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_encrypted', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_runner_token_hash').on('action_runner_token').column('token_hash').unique().execute();
    await db.schema.createIndex('action_runner_token_scope').on('action_runner_token').columns(['owner_id', 'repo_id', 'id']).execute();

    await createTableWithId(db, dialect, 'action_runner')
      .addColumn('uuid', 'varchar(36)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('ephemeral', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_salt', 'varchar(32)', (c) => c.notNull())
      .addColumn('agent_labels', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('last_online', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_active', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_runner_uuid').on('action_runner').column('uuid').unique().execute();
    await db.schema.createIndex('action_runner_owner').on('action_runner').columns(['owner_id', 'repo_id']).execute();
    await db.schema.createIndex('action_runner_repo').on('action_runner').column('repo_id').execute();
  },
};
