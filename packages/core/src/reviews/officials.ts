/**
 * Whose review counts: the base branch's protection rule, what accounts may do on the repository, and Forgejo's
 * official reviewers and teams. Reads only, through the scope given (the host or a transaction).
 */
import type { CoreTransaction } from '../context.js';
import { userActor } from '../users/index.js';
import { AccessMode, repoPermission, unitMode, type RepoPermission } from '../access/index.js';
import { AccessPort } from '../access/index.js';
import { OrgsPort } from '../orgs/index.js';
import { teamUnits } from '../orgs/index.js';
import type { Team } from '../orgs/index.js';
import { firstMatchingRule } from '../protection/index.js';
import { ProtectionPort } from '../protection/index.js';
import type { BranchRule } from '../protection/index.js';
import type { PullRequest } from '../pulls/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { User } from '../users/index.js';

/** What the base branch's protection rule says about reviews; without a rule, writers' approvals are official. */
export type ReviewRule = Pick<BranchRule, 'enableApprovalsWhitelist' | 'approvalsWhitelistUserIds' | 'approvalsWhitelistTeamIds' | 'dismissStaleApprovals' | 'ignoreStaleApprovals'>;

/** The protection rule of the pull request's base branch (an exact name before a glob), as far as reviews care. */
export async function reviewRuleOf(scope: Pick<CoreTransaction, 'port'>, pull: PullRequest): Promise<ReviewRule | undefined> {
  return firstMatchingRule(await scope.port(ProtectionPort).branchRules(pull.base_repo_id), pull.base_branch);
}

/** What each account may do on the repository, in a fixed number of queries. */
export async function permissionsOf(scope: Pick<CoreTransaction, 'port'>, access: RepoAccess, users: readonly User[]): Promise<Map<number, RepoPermission>> {
  const grants = await scope.port(AccessPort).grantsOfUsers(users.map((u) => u.id), access.repo.id, access.owner.id);
  const result = new Map<number, RepoPermission>();
  for (const user of users) {
    const userGrants = grants.get(user.id) ?? { member: false, mode: AccessMode.None };
    result.set(user.id, repoPermission(userActor(user), access.repo, access.owner, userGrants));
  }
  return result;
}

/** Forgejo's IsOfficialReviewer: whitelisted by the base branch's rule, or (without one) a writer on code. */
export async function isOfficialReviewer(scope: Pick<CoreTransaction, 'port'>, access: RepoAccess, pull: PullRequest, user: User): Promise<boolean> {
  const rule = await reviewRuleOf(scope, pull);
  if (rule?.enableApprovalsWhitelist) {
    if (rule.approvalsWhitelistUserIds.includes(user.id)) return true;
    return (await scope.port(OrgsPort).teamsOfMember(user.id, rule.approvalsWhitelistTeamIds)).size > 0;
  }
  const permission = (await permissionsOf(scope, access, [user])).get(user.id);
  return permission !== undefined && unitMode(permission, 'repo.code') >= AccessMode.Write;
}

/** Forgejo's IsOfficialReviewerTeam: only under a rule, whitelisted or (without a whitelist) writing code. */
export function isOfficialTeam(rule: ReviewRule | undefined, team: Team): boolean {
  if (!rule) return false;
  if (rule.enableApprovalsWhitelist) return rule.approvalsWhitelistTeamIds.includes(team.id);
  const units = teamUnits(team);
  const codeMode = team.authorize >= AccessMode.Admin || units.size === 0 ? team.authorize : (units.get('repo.code') ?? AccessMode.None);
  return codeMode >= AccessMode.Write;
}
