import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Commit statuses, with Forgejo's `commit_status` columns: every status a client reports for a commit of a
 * repository, numbered per commit (`index`, from 1); the latest per `context` makes the combined state.
 */
export const m0016_commits_statuses: Migration = {
  name: '0016_commits_statuses',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'commit_status')
      .addColumn('index', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      // pending, success, error, failure, warning (skipped is Forgejo Actions' own).
      .addColumn('state', 'varchar(7)', (c) => c.notNull())
      // The complete commit id (sha1 or sha256).
      .addColumn('sha', 'varchar(64)', (c) => c.notNull())
      .addColumn('target_url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      // sha1 of `context`, so a long context is still an index key.
      .addColumn('context_hash', 'varchar(40)', (c) => c.notNull())
      .addColumn('context', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('creator_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('commit_status_repo_sha_index').unique().on('commit_status').columns(['repo_id', 'sha', 'index']).execute();
    await db.schema.createIndex('commit_status_repo_sha_context').on('commit_status').columns(['repo_id', 'sha', 'context_hash']).execute();
  },
};
