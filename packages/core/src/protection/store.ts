import type { Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import { isGlobPattern } from '../glob.js';
import type {
  BranchRule,
  NewProtectedBranchRow,
  ProtectedBranchRow,
  ProtectedBranchTable,
  ProtectedTagRow,
  ProtectionTables,
  TagRule,
} from './tables.js';

function ids(json: string): number[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v)) : [];
  } catch {
    return [];
  }
}

function strings(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function toBranchRule(row: ProtectedBranchRow): BranchRule {
  return {
    id: row.id,
    repoId: row.repo_id,
    ruleName: row.rule_name,
    canPush: row.can_push === 1,
    enableWhitelist: row.enable_whitelist === 1,
    whitelistUserIds: ids(row.whitelist_user_ids),
    whitelistTeamIds: ids(row.whitelist_team_ids),
    enableMergeWhitelist: row.enable_merge_whitelist === 1,
    whitelistDeployKeys: row.whitelist_deploy_keys === 1,
    mergeWhitelistUserIds: ids(row.merge_whitelist_user_ids),
    mergeWhitelistTeamIds: ids(row.merge_whitelist_team_ids),
    enableStatusCheck: row.enable_status_check === 1,
    statusCheckContexts: strings(row.status_check_contexts),
    enableApprovalsWhitelist: row.enable_approvals_whitelist === 1,
    approvalsWhitelistUserIds: ids(row.approvals_whitelist_user_ids),
    approvalsWhitelistTeamIds: ids(row.approvals_whitelist_team_ids),
    requiredApprovals: Number(row.required_approvals),
    blockOnRejectedReviews: row.block_on_rejected_reviews === 1,
    blockOnOfficialReviewRequests: row.block_on_official_review_requests === 1,
    blockOnOutdatedBranch: row.block_on_outdated_branch === 1,
    dismissStaleApprovals: row.dismiss_stale_approvals === 1,
    ignoreStaleApprovals: row.ignore_stale_approvals === 1,
    requireSignedCommits: row.require_signed_commits === 1,
    protectedFilePatterns: row.protected_file_patterns,
    unprotectedFilePatterns: row.unprotected_file_patterns,
    applyToAdmins: row.apply_to_admins === 1,
    createdUnix: Number(row.created_unix),
    updatedUnix: Number(row.updated_unix),
  };
}

/** The columns of a rule, from its parsed form (for insert and update). */
export function branchRuleColumns(rule: Omit<BranchRule, 'id' | 'repoId' | 'createdUnix'>): Omit<Updateable<ProtectedBranchTable>, 'id' | 'repo_id' | 'created_unix'> {
  const b = (v: boolean) => (v ? 1 : 0);
  return {
    rule_name: rule.ruleName,
    can_push: b(rule.canPush),
    enable_whitelist: b(rule.enableWhitelist),
    whitelist_user_ids: JSON.stringify(rule.whitelistUserIds),
    whitelist_team_ids: JSON.stringify(rule.whitelistTeamIds),
    enable_merge_whitelist: b(rule.enableMergeWhitelist),
    whitelist_deploy_keys: b(rule.whitelistDeployKeys),
    merge_whitelist_user_ids: JSON.stringify(rule.mergeWhitelistUserIds),
    merge_whitelist_team_ids: JSON.stringify(rule.mergeWhitelistTeamIds),
    enable_status_check: b(rule.enableStatusCheck),
    status_check_contexts: JSON.stringify(rule.statusCheckContexts),
    enable_approvals_whitelist: b(rule.enableApprovalsWhitelist),
    approvals_whitelist_user_ids: JSON.stringify(rule.approvalsWhitelistUserIds),
    approvals_whitelist_team_ids: JSON.stringify(rule.approvalsWhitelistTeamIds),
    required_approvals: rule.requiredApprovals,
    block_on_rejected_reviews: b(rule.blockOnRejectedReviews),
    block_on_official_review_requests: b(rule.blockOnOfficialReviewRequests),
    block_on_outdated_branch: b(rule.blockOnOutdatedBranch),
    dismiss_stale_approvals: b(rule.dismissStaleApprovals),
    ignore_stale_approvals: b(rule.ignoreStaleApprovals),
    require_signed_commits: b(rule.requireSignedCommits),
    protected_file_patterns: rule.protectedFilePatterns,
    unprotected_file_patterns: rule.unprotectedFilePatterns,
    apply_to_admins: b(rule.applyToAdmins),
    updated_unix: rule.updatedUnix,
  };
}

export function toTagRule(row: ProtectedTagRow): TagRule {
  return {
    id: row.id,
    repoId: row.repo_id,
    namePattern: row.name_pattern,
    allowlistUserIds: ids(row.allowlist_user_ids),
    allowlistTeamIds: ids(row.allowlist_team_ids),
    createdUnix: Number(row.created_unix),
    updatedUnix: Number(row.updated_unix),
  };
}

/**
 * Forgejo's rule order: plain branch names before globs, then the first made first. The first rule of this
 * order that matches a branch is the one that applies to it.
 */
export function sortBranchRules(rules: BranchRule[]): BranchRule[] {
  return rules.sort((a, b) => {
    const plainA = !isGlobPattern(a.ruleName);
    const plainB = !isGlobPattern(b.ruleName);
    if (plainA !== plainB) return plainA ? -1 : 1;
    return a.createdUnix - b.createdUnix || a.id - b.id;
  });
}

/** The `protected_branch` and `protected_tag` tables. */
export class ProtectionStore extends Store<ProtectionTables> {
  /** Every push and branch read of a protected repository asks: compiled once. */
  private readonly branchRulesQuery = this.precompiled<ProtectedBranchRow, 'repo'>('protectedBranches', (db, param) =>
    db.selectFrom('protected_branch').selectAll().where('repo_id', '=', param('repo')),
  );
  private readonly tagRulesQuery = this.precompiled<ProtectedTagRow, 'repo'>('protectedTags', (db, param) =>
    db.selectFrom('protected_tag').selectAll().where('repo_id', '=', param('repo')).orderBy('id'),
  );
  /** Asked before every push: does the repository have any rule at all? */
  private readonly anyRuleQuery = this.precompiled<{ id: number }, 'repo'>('protectionAny', (db, param) =>
    db
      .selectFrom('protected_branch')
      .select('id')
      .where('repo_id', '=', param('repo'))
      .unionAll((eb) => eb.selectFrom('protected_tag').select('id').where('repo_id', '=', param('repo'))),
  );

  /** The repository's branch rules in the order they apply (see `sortBranchRules`). */
  async branchRules(repoId: number): Promise<BranchRule[]> {
    return sortBranchRules((await this.branchRulesQuery({ repo: repoId })).map(toBranchRule));
  }

  async branchRuleByName(repoId: number, ruleName: string): Promise<BranchRule | undefined> {
    const row = await this.db.selectFrom('protected_branch').selectAll().where('repo_id', '=', repoId).where('rule_name', '=', ruleName).executeTakeFirst();
    return row && toBranchRule(row);
  }

  async insertBranchRule(row: NewProtectedBranchRow): Promise<BranchRule> {
    return toBranchRule(await this.db.insertInto('protected_branch').values(row).returningAll().executeTakeFirstOrThrow());
  }

  async updateBranchRule(id: number, changes: Updateable<ProtectedBranchTable>): Promise<BranchRule | undefined> {
    const row = await this.db.updateTable('protected_branch').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toBranchRule(row);
  }

  async deleteBranchRule(repoId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('protected_branch').where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Tag rules, oldest first. */
  async tagRules(repoId: number): Promise<TagRule[]> {
    return (await this.tagRulesQuery({ repo: repoId })).map(toTagRule);
  }

  async tagRuleById(repoId: number, id: number): Promise<TagRule | undefined> {
    const row = await this.db.selectFrom('protected_tag').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
    return row && toTagRule(row);
  }

  async tagRuleByPattern(repoId: number, pattern: string): Promise<TagRule | undefined> {
    const row = await this.db.selectFrom('protected_tag').selectAll().where('repo_id', '=', repoId).where('name_pattern', '=', pattern).orderBy('id').executeTakeFirst();
    return row && toTagRule(row);
  }

  async insertTagRule(row: { repo_id: number; name_pattern: string; allowlist_user_ids: string; allowlist_team_ids: string; created_unix: number; updated_unix: number }): Promise<TagRule> {
    return toTagRule(await this.db.insertInto('protected_tag').values(row).returningAll().executeTakeFirstOrThrow());
  }

  async updateTagRule(id: number, changes: { name_pattern?: string; allowlist_user_ids?: string; allowlist_team_ids?: string; updated_unix: number }): Promise<TagRule | undefined> {
    const row = await this.db.updateTable('protected_tag').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toTagRule(row);
  }

  async deleteTagRule(repoId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('protected_tag').where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async hasAnyRule(repoId: number): Promise<boolean> {
    return (await this.anyRuleQuery({ repo: repoId })).length > 0;
  }

  /** A repository's rules go with it. */
  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('protected_branch').where('repo_id', '=', repoId).execute();
    await this.db.deleteFrom('protected_tag').where('repo_id', '=', repoId).execute();
  }
}
