import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Branch and tag protection, with Forgejo's columns. `protected_branch.rule_name` is a branch name or a glob
 * (Forgejo's legacy `branch_name` column); whitelists are JSON arrays of user or team ids, status check contexts a
 * JSON array of strings, file patterns `;`-separated globs. `protected_tag.name_pattern` is a glob, or a regular
 * expression between slashes.
 */
export const m0030_protection_create: Migration = {
  name: '0030_protection_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'protected_branch')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('rule_name', 'text', (c) => c.notNull())
      .addColumn('can_push', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('enable_whitelist', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('whitelist_user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('whitelist_team_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('enable_merge_whitelist', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('whitelist_deploy_keys', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('merge_whitelist_user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('merge_whitelist_team_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('enable_status_check', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status_check_contexts', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('enable_approvals_whitelist', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('approvals_whitelist_user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('approvals_whitelist_team_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('required_approvals', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('block_on_rejected_reviews', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('block_on_official_review_requests', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('block_on_outdated_branch', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dismiss_stale_approvals', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('ignore_stale_approvals', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('require_signed_commits', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('protected_file_patterns', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('unprotected_file_patterns', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('apply_to_admins', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('protected_branch_repo_rule').on('protected_branch').columns(['repo_id', 'rule_name']).unique().execute();

    await createTableWithId(db, dialect, 'protected_tag')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('name_pattern', 'text', (c) => c.notNull())
      .addColumn('allowlist_user_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('allowlist_team_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('protected_tag_repo_id').on('protected_tag').column('repo_id').execute();
  },
};
