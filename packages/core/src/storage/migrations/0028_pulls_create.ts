import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Pull requests, with Forgejo's columns: each is an `issue` row (`is_pull`) plus one `pull_request` row naming its
 * head and base. `status` is Forgejo's PullRequestStatus (0 conflict, 1 checking, 2 mergeable, 3 manually merged,
 * 4 error, 5 empty, 6 ancestor); `conflicted_files` and `changed_protected_files` are JSON arrays of paths.
 */
export const m0028_pulls_create: Migration = {
  name: '0028_pulls_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'pull_request')
      .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('conflicted_files', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('commits_ahead', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('commits_behind', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('changed_protected_files', 'text', (c) => c.notNull().defaultTo('[]'))
      // The diff's size from the merge base to the head, kept with each check so lists never diff.
      .addColumn('additions', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('deletions', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('changed_files', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('index', 'bigint', (c) => c.notNull())
      .addColumn('head_repo_id', 'bigint', (c) => c.notNull())
      .addColumn('base_repo_id', 'bigint', (c) => c.notNull())
      .addColumn('head_branch', 'text', (c) => c.notNull())
      .addColumn('base_branch', 'text', (c) => c.notNull())
      .addColumn('merge_base', 'text', (c) => c.notNull().defaultTo(''))
      // The head commit when the pull request was last checked (`refs/pull/{index}/head` in the base repository).
      .addColumn('head_commit_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('allow_maintainer_edit', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('has_merged', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('merged_commit_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('merger_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('merged_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('flow', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('pull_request_issue_id').on('pull_request').column('issue_id').unique().execute();
    await db.schema.createIndex('pull_request_base').on('pull_request').columns(['base_repo_id', 'base_branch']).execute();
    await db.schema.createIndex('pull_request_head').on('pull_request').columns(['head_repo_id', 'head_branch']).execute();
  },
};
