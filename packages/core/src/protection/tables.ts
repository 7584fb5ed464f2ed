import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * A branch protection rule, as Forgejo stores it. `rule_name` is a branch name (matched in any case) or a glob;
 * the `*_ids` columns are JSON arrays of user or team ids, `status_check_contexts` a JSON array of strings, and
 * the file patterns `;`-separated globs.
 */
export interface ProtectedBranchTable {
  id: Generated<number>;
  repo_id: number;
  rule_name: string;
  can_push: Generated<number>;
  enable_whitelist: Generated<number>;
  whitelist_user_ids: Generated<string>;
  whitelist_team_ids: Generated<string>;
  enable_merge_whitelist: Generated<number>;
  whitelist_deploy_keys: Generated<number>;
  merge_whitelist_user_ids: Generated<string>;
  merge_whitelist_team_ids: Generated<string>;
  enable_status_check: Generated<number>;
  status_check_contexts: Generated<string>;
  enable_approvals_whitelist: Generated<number>;
  approvals_whitelist_user_ids: Generated<string>;
  approvals_whitelist_team_ids: Generated<string>;
  required_approvals: Generated<number>;
  block_on_rejected_reviews: Generated<number>;
  block_on_official_review_requests: Generated<number>;
  block_on_outdated_branch: Generated<number>;
  dismiss_stale_approvals: Generated<number>;
  ignore_stale_approvals: Generated<number>;
  require_signed_commits: Generated<number>;
  protected_file_patterns: Generated<string>;
  unprotected_file_patterns: Generated<string>;
  apply_to_admins: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** A tag protection rule: who may create, move or delete the tags `name_pattern` matches. */
export interface ProtectedTagTable {
  id: Generated<number>;
  repo_id: number;
  name_pattern: string;
  allowlist_user_ids: Generated<string>;
  allowlist_team_ids: Generated<string>;
  created_unix: number;
  updated_unix: number;
}

/** The tables the protection domain owns. */
export interface ProtectionTables {
  protected_branch: ProtectedBranchTable;
  protected_tag: ProtectedTagTable;
}

export type ProtectedBranchRow = Selectable<ProtectedBranchTable>;
export type NewProtectedBranchRow = Insertable<ProtectedBranchTable>;
export type ProtectedTagRow = Selectable<ProtectedTagTable>;

/** A branch protection rule with its JSON columns read. */
export interface BranchRule {
  id: number;
  repoId: number;
  ruleName: string;
  canPush: boolean;
  enableWhitelist: boolean;
  whitelistUserIds: number[];
  whitelistTeamIds: number[];
  enableMergeWhitelist: boolean;
  whitelistDeployKeys: boolean;
  mergeWhitelistUserIds: number[];
  mergeWhitelistTeamIds: number[];
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  enableApprovalsWhitelist: boolean;
  approvalsWhitelistUserIds: number[];
  approvalsWhitelistTeamIds: number[];
  requiredApprovals: number;
  blockOnRejectedReviews: boolean;
  blockOnOfficialReviewRequests: boolean;
  blockOnOutdatedBranch: boolean;
  dismissStaleApprovals: boolean;
  ignoreStaleApprovals: boolean;
  requireSignedCommits: boolean;
  protectedFilePatterns: string;
  unprotectedFilePatterns: string;
  applyToAdmins: boolean;
  createdUnix: number;
  updatedUnix: number;
}

/** A tag protection rule with its JSON columns read. */
export interface TagRule {
  id: number;
  repoId: number;
  namePattern: string;
  allowlistUserIds: number[];
  allowlistTeamIds: number[];
  createdUnix: number;
  updatedUnix: number;
}

declare module '../storage/schema.js' {
  interface Schema extends ProtectionTables {}
}
