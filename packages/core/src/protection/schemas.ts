import { Type, type Static } from '@sinclair/typebox';

/** The API `BranchProtection` record. */
export const BranchProtectionSchema = Type.Object(
  {
    apply_to_admins: Type.Boolean(),
    approvals_whitelist_teams: Type.Array(Type.String()),
    approvals_whitelist_username: Type.Array(Type.String()),
    block_on_official_review_requests: Type.Boolean(),
    block_on_outdated_branch: Type.Boolean(),
    block_on_rejected_reviews: Type.Boolean(),
    branch_name: Type.String({ description: 'deprecated: use rule_name' }),
    created_at: Type.String({ format: 'date-time' }),
    dismiss_stale_approvals: Type.Boolean(),
    enable_approvals_whitelist: Type.Boolean(),
    enable_merge_whitelist: Type.Boolean(),
    enable_push: Type.Boolean(),
    enable_push_whitelist: Type.Boolean(),
    enable_status_check: Type.Boolean(),
    ignore_stale_approvals: Type.Boolean(),
    merge_whitelist_teams: Type.Array(Type.String()),
    merge_whitelist_usernames: Type.Array(Type.String()),
    protected_file_patterns: Type.String(),
    push_whitelist_deploy_keys: Type.Boolean(),
    push_whitelist_teams: Type.Array(Type.String()),
    push_whitelist_usernames: Type.Array(Type.String()),
    require_signed_commits: Type.Boolean(),
    required_approvals: Type.Integer({ format: 'int64' }),
    rule_name: Type.String(),
    status_check_contexts: Type.Array(Type.String()),
    unprotected_file_patterns: Type.String(),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'BranchProtection', description: 'BranchProtection represents a branch protection for a repository' },
);
export type ApiBranchProtection = Static<typeof BranchProtectionSchema>;

/** What a branch rule sets, as the create and edit options take it (every field optional). */
const BRANCH_RULE_SETTINGS = {
  apply_to_admins: Type.Optional(Type.Boolean()),
  approvals_whitelist_teams: Type.Optional(Type.Array(Type.String())),
  approvals_whitelist_username: Type.Optional(Type.Array(Type.String())),
  block_on_official_review_requests: Type.Optional(Type.Boolean()),
  block_on_outdated_branch: Type.Optional(Type.Boolean()),
  block_on_rejected_reviews: Type.Optional(Type.Boolean()),
  dismiss_stale_approvals: Type.Optional(Type.Boolean()),
  enable_approvals_whitelist: Type.Optional(Type.Boolean()),
  enable_merge_whitelist: Type.Optional(Type.Boolean()),
  enable_push: Type.Optional(Type.Boolean()),
  enable_push_whitelist: Type.Optional(Type.Boolean()),
  enable_status_check: Type.Optional(Type.Boolean()),
  ignore_stale_approvals: Type.Optional(Type.Boolean()),
  merge_whitelist_teams: Type.Optional(Type.Array(Type.String())),
  merge_whitelist_usernames: Type.Optional(Type.Array(Type.String())),
  protected_file_patterns: Type.Optional(Type.String()),
  push_whitelist_deploy_keys: Type.Optional(Type.Boolean()),
  push_whitelist_teams: Type.Optional(Type.Array(Type.String())),
  push_whitelist_usernames: Type.Optional(Type.Array(Type.String())),
  require_signed_commits: Type.Optional(Type.Boolean()),
  required_approvals: Type.Optional(Type.Integer({ format: 'int64' })),
  status_check_contexts: Type.Optional(Type.Array(Type.String())),
  unprotected_file_patterns: Type.Optional(Type.String()),
};

/** `POST /repos/{owner}/{repo}/branch_protections`: `rule_name`, or the deprecated `branch_name`, names the rule. */
export const CreateBranchProtectionOptionSchema = Type.Object(
  {
    ...BRANCH_RULE_SETTINGS,
    branch_name: Type.Optional(Type.String({ description: 'deprecated: use rule_name' })),
    rule_name: Type.Optional(Type.String()),
  },
  { $id: 'CreateBranchProtectionOption', description: 'CreateBranchProtectionOption options for creating a branch protection' },
);
export type CreateBranchProtectionOption = Static<typeof CreateBranchProtectionOptionSchema>;

/** `PATCH /repos/{owner}/{repo}/branch_protections/{name}`: only the fields sent change (the rule keeps its name). */
export const EditBranchProtectionOptionSchema = Type.Object(BRANCH_RULE_SETTINGS, {
  $id: 'EditBranchProtectionOption',
  description: 'EditBranchProtectionOption options for editing a branch protection',
});
export type EditBranchProtectionOption = Static<typeof EditBranchProtectionOptionSchema>;

/** The API `TagProtection` record. */
export const TagProtectionSchema = Type.Object(
  {
    created_at: Type.String({ format: 'date-time' }),
    id: Type.Integer({ format: 'int64' }),
    name_pattern: Type.String(),
    updated_at: Type.String({ format: 'date-time' }),
    whitelist_teams: Type.Array(Type.String()),
    whitelist_usernames: Type.Array(Type.String()),
  },
  { $id: 'TagProtection', description: 'TagProtection represents a tag protection' },
);
export type ApiTagProtection = Static<typeof TagProtectionSchema>;

/** What a tag rule sets, as the create and edit options take it (every field optional). */
const TAG_RULE_SETTINGS = {
  name_pattern: Type.Optional(Type.String()),
  whitelist_teams: Type.Optional(Type.Array(Type.String())),
  whitelist_usernames: Type.Optional(Type.Array(Type.String())),
};

/** `POST /repos/{owner}/{repo}/tag_protections`. */
export const CreateTagProtectionOptionSchema = Type.Object(TAG_RULE_SETTINGS, {
  $id: 'CreateTagProtectionOption',
  description: 'CreateTagProtectionOption options for creating a tag protection',
});
export type CreateTagProtectionOption = Static<typeof CreateTagProtectionOptionSchema>;

/** `PATCH /repos/{owner}/{repo}/tag_protections/{id}`: only the fields sent change. */
export const EditTagProtectionOptionSchema = Type.Object(TAG_RULE_SETTINGS, {
  $id: 'EditTagProtectionOption',
  description: 'EditTagProtectionOption options for editing a tag protection',
});
export type EditTagProtectionOption = Static<typeof EditTagProtectionOptionSchema>;
