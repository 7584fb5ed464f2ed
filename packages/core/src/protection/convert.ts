import { isoTime } from '../wire.js';
import { isGlobPattern } from '../glob.js';
import type { ApiBranchProtection, ApiTagProtection } from './schemas.js';
import type { BranchRule, TagRule } from './tables.js';

/** The names of the users and teams a page of rules names, by id. */
export interface ProtectionNames {
  users: ReadonlyMap<number, string>;
  teams: ReadonlyMap<number, string>;
}

/** Names of the ids that still exist, sorted by name (Forgejo's `GetUserNamesByIDs`, `GetTeamNamesByID`). */
function sortedNames(ids: readonly number[], names: ReadonlyMap<number, string>): string[] {
  return ids
    .map((id) => names.get(id))
    .filter((n): n is string => n !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Names in the order of the ids (Forgejo's tag protection lists them so). */
function namesInOrder(ids: readonly number[], names: ReadonlyMap<number, string>): string[] {
  return ids.map((id) => names.get(id)).filter((n): n is string => n !== undefined);
}

/** The API view of a branch rule; `branch_name` repeats a plain rule name and is empty for a glob. */
export function toApiBranchProtection(rule: BranchRule, names: ProtectionNames): ApiBranchProtection {
  return {
    branch_name: isGlobPattern(rule.ruleName) ? '' : rule.ruleName,
    rule_name: rule.ruleName,
    enable_push: rule.canPush,
    enable_push_whitelist: rule.enableWhitelist,
    push_whitelist_usernames: sortedNames(rule.whitelistUserIds, names.users),
    push_whitelist_teams: sortedNames(rule.whitelistTeamIds, names.teams),
    push_whitelist_deploy_keys: rule.whitelistDeployKeys,
    enable_merge_whitelist: rule.enableMergeWhitelist,
    merge_whitelist_usernames: sortedNames(rule.mergeWhitelistUserIds, names.users),
    merge_whitelist_teams: sortedNames(rule.mergeWhitelistTeamIds, names.teams),
    enable_status_check: rule.enableStatusCheck,
    status_check_contexts: rule.statusCheckContexts,
    required_approvals: rule.requiredApprovals,
    enable_approvals_whitelist: rule.enableApprovalsWhitelist,
    approvals_whitelist_username: sortedNames(rule.approvalsWhitelistUserIds, names.users),
    approvals_whitelist_teams: sortedNames(rule.approvalsWhitelistTeamIds, names.teams),
    block_on_rejected_reviews: rule.blockOnRejectedReviews,
    block_on_official_review_requests: rule.blockOnOfficialReviewRequests,
    block_on_outdated_branch: rule.blockOnOutdatedBranch,
    dismiss_stale_approvals: rule.dismissStaleApprovals,
    ignore_stale_approvals: rule.ignoreStaleApprovals,
    require_signed_commits: rule.requireSignedCommits,
    protected_file_patterns: rule.protectedFilePatterns,
    unprotected_file_patterns: rule.unprotectedFilePatterns,
    apply_to_admins: rule.applyToAdmins,
    created_at: isoTime(rule.createdUnix),
    updated_at: isoTime(rule.updatedUnix),
  };
}

export function toApiTagProtection(rule: TagRule, names: ProtectionNames): ApiTagProtection {
  return {
    id: rule.id,
    name_pattern: rule.namePattern,
    whitelist_usernames: namesInOrder(rule.allowlistUserIds, names.users),
    whitelist_teams: namesInOrder(rule.allowlistTeamIds, names.teams),
    created_at: isoTime(rule.createdUnix),
    updated_at: isoTime(rule.updatedUnix),
  };
}
