import type { Migration } from './kit.js';

/**
 * Lists of one kind (issues, or pull requests) in a repository, newest or most recently updated first, of every
 * state or of one (`issue_repo_state` has state and update time): without these, a page of a repository's pull
 * requests read `issue_repo_created` (repository, creation) through every newer issue, and a page sorted by update
 * time sorted all of the kind's rows. With them a page reads its own rows, however many of the other kind or state
 * the repository holds.
 */
export const m0057_issues_list_order: Migration = {
  name: '0057_issues_list_order',
  async up(db) {
    await db.schema.createIndex('issue_repo_kind_created').on('issue').columns(['repo_id', 'is_pull', 'created_unix']).execute();
    await db.schema.createIndex('issue_repo_kind_updated').on('issue').columns(['repo_id', 'is_pull', 'updated_unix']).execute();
    await db.schema.createIndex('issue_repo_state_created').on('issue').columns(['repo_id', 'is_pull', 'is_closed', 'created_unix']).execute();
  },
};
