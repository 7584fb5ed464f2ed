import type { Migration } from './kit.js';

/**
 * The tips of each pull request's base and head branches, kept in its row when the branches move, so lists and
 * views show `base.sha` and `head.sha`/`head.ref` without asking git per item. Existing rows start unknown (NULL):
 * a migration cannot read git, so the first view of each reads the tips and stores them.
 */
export const m0048_pulls_branch_tips: Migration = {
  name: '0048_pulls_branch_tips',
  async up(db) {
    // One column per statement: SQLite adds one at a time.
    await db.schema.alterTable('pull_request').addColumn('base_branch_commit_id', 'text').execute();
    await db.schema.alterTable('pull_request').addColumn('head_branch_commit_id', 'text').execute();
  },
};
