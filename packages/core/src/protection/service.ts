import type { CoreContext } from '../context.js';
import { actorUser, userActor, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { BadRequestError, ForbiddenError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import type { IncomingObjects, RefUpdate } from '../git/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { CommitVerifier } from '../commits/index.js';
import { toApiBranchProtection, toApiTagProtection, type ProtectionNames } from './convert.js';
import { branchRuleMatcher, filePatterns, matchesAnyFile, tagRuleMatcher } from './glob.js';
import { Glob } from '../glob.js';
import {
  CreateBranchProtectionOptionSchema,
  CreateTagProtectionOptionSchema,
  EditBranchProtectionOptionSchema,
  EditTagProtectionOptionSchema,
  type ApiBranchProtection,
  type ApiTagProtection,
  type CreateBranchProtectionOption,
  type CreateTagProtectionOption,
  type EditBranchProtectionOption,
  type EditTagProtectionOption,
} from './schemas.js';
import { branchRuleColumns, ProtectionStore } from './store.js';
import type { BranchRule, TagRule } from './tables.js';
import { ProtectionTeamsStore } from './teams-store.js';
import { PushCheckEndpoint } from './push-check.js';
import type { PushCheck, PusherKind, PushPolicy } from '../repos/index.js';
import type { RepoKey } from '../git/index.js';

const NOT_REPO_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';
const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';
/** Paths of one ref update looked at for protected files; a push changing more is judged on these. */
const MAX_CHANGED_PATHS = 100_000;
/** Commits of one ref update checked for signatures; a push bringing more is refused when the rule asks for them. */
const MAX_SIGNED_COMMITS = 10_000;

/**
 * What the merge code knows of a pull request when it asks `mergeBlockers`: reviews counted as Forgejo counts
 * them (official, not dismissed), the head commit's latest status per context, and the pull request's state.
 */
export interface MergeFacts {
  /** Official approvals not dismissed, stale ones included. */
  officialApprovals: number;
  /** Of those, the ones given on an older head commit (not counted when the rule ignores stale approvals). */
  staleOfficialApprovals: number;
  /** Official "request changes" reviews not dismissed. */
  officialRejections: number;
  /** Official review requests still waiting. */
  officialRequestsPending: number;
  /** The head commit's latest status per context. */
  statuses: readonly { context: string; state: string }[];
  /** Commits the base has that the head lacks. */
  commitsBehind: number;
  /** Protected files the pull request changes (`pull_request.changed_protected_files`). */
  changedProtectedFiles: readonly string[];
}

/** Forgejo's order of commit states, worst first (`NoBetterThan`). */
const STATE_RANK: Record<string, number> = { error: 0, failure: 1, warning: 2, pending: 3, success: 4 };

/**
 * The combined state of the required contexts (globs) among a commit's statuses, as Forgejo's
 * `MergeRequiredContextsCommitStatus`: pending when one has no status; without required contexts, the worst of all.
 */
export function requiredStatusState(statuses: readonly { context: string; state: string }[], required: readonly string[]): string {
  if (statuses.length === 0) return 'pending';
  const rank = (state: string) => STATE_RANK[state] ?? 3;
  if (required.length === 0) return statuses.reduce((worst, s) => (rank(s.state) < rank(worst) ? s.state : worst), 'success');
  let result = 'success';
  for (const context of required) {
    let glob: Glob;
    try {
      glob = Glob.compile(context);
    } catch {
      continue;
    }
    const found = statuses.find((s) => glob.match(s.context));
    if (!found) {
      if (rank('pending') <= rank(result)) result = 'pending';
      break;
    }
    if (rank(found.state) <= rank(result)) result = found.state;
  }
  return result;
}

/** The first of `rules` (in `sortBranchRules` order) that applies to `branch`. */
export function firstMatchingRule(rules: readonly BranchRule[], branch: string): BranchRule | undefined {
  return rules.find((rule) => branchRuleMatcher(rule.ruleName)(branch));
}

/** The files among `paths` a rule protects (for `pull_request.changed_protected_files`). */
export function protectedFilesAmong(rule: BranchRule | undefined, paths: readonly string[]): string[] {
  const globs = rule ? filePatterns(rule.protectedFilePatterns) : [];
  return globs.length === 0 ? [] : paths.filter((p) => matchesAnyFile(globs, p));
}

/** Branch and tag protection: the rules (`/branch_protections`, `/tag_protections`) and what they refuse. */
export class ProtectionService implements PushPolicy {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ProtectionStore {
    return this.ctx.store(ProtectionStore);
  }

  private get teams(): ProtectionTeamsStore {
    return this.ctx.store(ProtectionTeamsStore);
  }

  /** Rules go with their repository. */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      await tx.store(ProtectionStore).deleteOfRepo(payload.repo.id);
    });
  }

  /** Forgejo's reqToken and reqAdmin on both rule sets. */
  assertRepoAdmin(actor: Actor, access: RepoAccess): void {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (access.mode < AccessMode.Admin) throw new ForbiddenError(NOT_REPO_ADMIN);
  }

  // ---- what other domains ask ----

  /** Where pre-receive hooks ask about pushes; listens from the first push to a repository with rules. */
  private readonly endpoint = new PushCheckEndpoint();

  /**
   * Prepares the check of a push about to run: undefined when the repository has no rule (the hook then asks
   * nothing), else the callback to hand to receive-pack (`RunServiceOptions.hookCallback`). `close` it once git
   * has exited.
   */
  async openPushCheck(actor: Actor, access: RepoAccess, key: RepoKey, pusher: PusherKind = {}): Promise<PushCheck | undefined> {
    if (!(await this.store.hasAnyRule(access.repo.id))) return undefined;
    return this.endpoint.open((updates, quarantine) => this.checkRefUpdates(actor, access, updates, this.ctx.git.incoming(key, quarantine), pusher));
  }

  /** Stops listening for hooks (the host is closing). */
  closeEndpoint(): void {
    this.endpoint.close();
  }

  /** Does the repository have any branch or tag rule? A push to one without costs no check. */
  hasRules(repoId: number): Promise<boolean> {
    return this.store.hasAnyRule(repoId);
  }

  /** The repository's branch rules, in the order they apply. */
  branchRules(repoId: number): Promise<BranchRule[]> {
    return this.store.branchRules(repoId);
  }

  /** The rule that applies to `branch` (an exact name before any glob, then the oldest), if any. */
  async ruleFor(repo: Pick<Repository, 'id'>, branch: string): Promise<BranchRule | undefined> {
    return firstMatchingRule(await this.store.branchRules(repo.id), branch);
  }

  /** Forgejo's `CanUserPush`: push enabled, and the user whitelisted (when a whitelist is on) or a code writer. */
  async canUserPush(rule: BranchRule, user: User | null, access: RepoAccess): Promise<boolean> {
    if (!rule.canPush || !user) return false;
    if (!rule.enableWhitelist) return unitMode(access, 'repo.code') >= AccessMode.Write;
    if (rule.whitelistUserIds.includes(user.id)) return true;
    return this.teams.inAnyTeam(user.id, rule.whitelistTeamIds);
  }

  /** Forgejo's `IsUserMergeWhitelisted`: the merge whitelist when on, else write on code. */
  async isUserMergeWhitelisted(rule: BranchRule, user: User | null, access: RepoAccess): Promise<boolean> {
    if (!user) return false;
    if (!rule.enableMergeWhitelist) return unitMode(access, 'repo.code') >= AccessMode.Write;
    if (rule.mergeWhitelistUserIds.includes(user.id)) return true;
    return this.teams.inAnyTeam(user.id, rule.mergeWhitelistTeamIds);
  }

  /**
   * Forgejo's `IsUserAllowedToMerge`: without a rule, write on code; with one, its merge whitelist. `access` is
   * the actor's access to the base repository.
   */
  async isUserAllowedToMerge(actor: Actor, access: RepoAccess, rule: BranchRule | undefined): Promise<boolean> {
    const user = actorUser(actor);
    if (!user) return false;
    if (!rule) return unitMode(access, 'repo.code') >= AccessMode.Write;
    return this.isUserMergeWhitelisted(rule, user, access);
  }

  /**
   * Forgejo's `IsUserOfficialReviewer`: does this reviewer's review count towards the rule's approvals? Without
   * a rule no review is official. `access` is the reviewer's access to the base repository.
   */
  async isOfficialReviewer(rule: BranchRule | undefined, user: User, access: RepoAccess): Promise<boolean> {
    if (!rule) return false;
    if (!rule.enableApprovalsWhitelist) return unitMode(access, 'repo.code') >= AccessMode.Write;
    if (rule.approvalsWhitelistUserIds.includes(user.id)) return true;
    return this.teams.inAnyTeam(user.id, rule.approvalsWhitelistTeamIds);
  }

  /**
   * Forgejo's `CheckPullBranchProtections`: the reason the rule refuses a merge now (the text of its
   * `not allowed to merge [reason: …]`), or undefined. Protected files are skipped when asked (a merge the
   * server pushes itself checks them separately, as Forgejo does).
   */
  mergeBlockers(rule: BranchRule | undefined, facts: MergeFacts, options: { skipProtectedFiles?: boolean } = {}): string | undefined {
    if (!rule) return undefined;
    if (rule.enableStatusCheck && requiredStatusState(facts.statuses, rule.statusCheckContexts) !== 'success') return 'Not all required status checks successful';
    if (rule.requiredApprovals > 0) {
      const granted = facts.officialApprovals - (rule.ignoreStaleApprovals ? facts.staleOfficialApprovals : 0);
      if (granted < rule.requiredApprovals) return 'Does not have enough approvals';
    }
    if (rule.blockOnRejectedReviews && facts.officialRejections > 0) return 'There are requested changes';
    if (rule.blockOnOfficialReviewRequests && facts.officialRequestsPending > 0) return 'There are official review requests';
    if (rule.blockOnOutdatedBranch && facts.commitsBehind > 0) return 'The head branch is behind the base branch';
    if (!options.skipProtectedFiles && filePatterns(rule.protectedFilePatterns).length > 0 && facts.changedProtectedFiles.length > 0) return 'Changed protected files';
    return undefined;
  }

  /**
   * May the actor commit `paths` to `branch` through the contents API? Forgejo's `VerifyBranchProtection`: a
   * user who may not push may still change files the rule leaves unprotected; nobody changes a protected file;
   * a rule asking for signed commits refuses the server's unsigned ones. 403 with Forgejo's messages.
   */
  async assertMayCommit(actor: Actor, access: RepoAccess, branch: string, paths: readonly string[]): Promise<void> {
    const rule = await this.ruleFor(access.repo, branch);
    if (!rule) return;
    const user = actorUser(actor);
    const cannotCommit = () => new ForbiddenError(`user cannot commit to repo [user: ${user?.lower_name ?? ''}]`);
    const unprotected = filePatterns(rule.unprotectedFilePatterns);
    const protectedGlobs = filePatterns(rule.protectedFilePatterns);
    const canPush = await this.canUserPush(rule, user, access);
    for (const path of paths) {
      if (!canPush && !matchesAnyFile(unprotected, path)) throw cannotCommit();
      if (matchesAnyFile(protectedGlobs, path)) throw new ForbiddenError(`path is protected and can not be changed [path: ${path}]`);
    }
    // The server does not sign the commits it writes.
    if (rule.requireSignedCommits) throw cannotCommit();
  }

  /** May the actor create, move or delete tag `tag`? Forgejo's `IsUserAllowedToControlTag`. */
  async mayControlTag(actor: Actor, repoId: number, tag: string, rules?: readonly TagRule[]): Promise<boolean> {
    const user = actorUser(actor);
    // Not protected until a rule matches; then allowed as soon as one matching rule lets the user.
    let allowed = true;
    for (const rule of rules ?? (await this.store.tagRules(repoId))) {
      if (!(await tagRuleMatcher(rule.namePattern))(tag)) continue;
      allowed = !!user && (rule.allowlistUserIds.includes(user.id) || (await this.teams.inAnyTeam(user.id, rule.allowlistTeamIds)));
      if (allowed) break;
    }
    return allowed;
  }

  /**
   * The pre-receive decision for a push (or a ref move the server makes for a user): the message refusing the
   * first update a rule forbids, or undefined when all may go. `incoming` reads the pushed objects.
   */
  async checkRefUpdates(actor: Actor, access: RepoAccess, updates: readonly RefUpdate[], incoming: IncomingObjects, pusher: PusherKind = {}): Promise<string | undefined> {
    let branchRules: BranchRule[] | undefined;
    let tagRules: TagRule[] | undefined;
    const user = actorUser(actor);
    for (const update of updates) {
      const deleting = /^0+$/.test(update.newId);
      const creating = /^0+$/.test(update.oldId);
      if (update.ref.startsWith(HEADS)) {
        const branch = update.ref.slice(HEADS.length);
        branchRules ??= await this.store.branchRules(access.repo.id);
        const rule = firstMatchingRule(branchRules, branch);
        if (!rule) continue;
        if (deleting) return `branch ${branch} is protected from deletion`;
        if (!creating && !(await incoming.isAncestor(update.oldId, update.newId))) return `branch ${branch} is protected from force push`;
        if (rule.requireSignedCommits) {
          const unverified = await this.firstUnverified(incoming, creating ? undefined : update.oldId, update.newId);
          if (unverified) return `branch ${branch} is protected from unverified commit ${unverified}`;
        }
        const protectedGlobs = filePatterns(rule.protectedFilePatterns);
        const unprotectedGlobs = filePatterns(rule.unprotectedFilePatterns);
        const needPaths = protectedGlobs.length > 0 || unprotectedGlobs.length > 0;
        const changed = needPaths ? await incoming.changedPaths(creating ? undefined : update.oldId, update.newId, MAX_CHANGED_PATHS) : [];
        const protectedFile = protectedGlobs.length > 0 ? changed.find((p) => matchesAnyFile(protectedGlobs, p)) : undefined;
        // A deploy key pushes where push is on, and past a whitelist only when the rule lets deploy keys in.
        const canPush = pusher.deployKey ? rule.canPush && (!rule.enableWhitelist || rule.whitelistDeployKeys) : await this.canUserPush(rule, user, access);
        if (!protectedFile && canPush) continue;
        if (protectedFile) return `branch ${branch} is protected from changing file ${protectedFile}`;
        // Commits that touch only files the rule leaves unprotected may go in.
        if (unprotectedGlobs.length > 0 && changed.every((p) => matchesAnyFile(unprotectedGlobs, p))) continue;
        return `Not allowed to push to protected branch ${branch}`;
      }
      if (update.ref.startsWith(TAGS)) {
        const tag = update.ref.slice(TAGS.length);
        tagRules ??= await this.store.tagRules(access.repo.id);
        if (tagRules.length > 0 && !(await this.mayControlTag(actor, access.repo.id, tag, tagRules))) return `Tag ${tag} is protected`;
      }
    }
    return undefined;
  }

  /** The first commit of `from..to` whose signature does not verify (Forgejo's `verifyCommits`). */
  private async firstUnverified(incoming: IncomingObjects, from: string | undefined, to: string): Promise<string | undefined> {
    const commits = await incoming.newCommits(from, to, MAX_SIGNED_COMMITS + 1);
    if (commits.length > MAX_SIGNED_COMMITS) return commits[MAX_SIGNED_COMMITS]!.id;
    const verifier = new CommitVerifier(this.ctx);
    for (const commit of commits) {
      if (!(await verifier.verify(commit.raw)).verified) return commit.id;
    }
    return undefined;
  }

  /** Renames the rule named exactly `from` (a branch rename takes its rule along); false when there is none. */
  async renameBranchRule(repoId: number, from: string, to: string): Promise<boolean> {
    const rule = await this.store.branchRuleByName(repoId, from);
    if (!rule) return false;
    await this.store.updateBranchRule(rule.id, { rule_name: to, updated_unix: nowUnix() });
    return true;
  }

  // ---- branch rules ----

  async listBranchRules(actor: Actor, access: RepoAccess): Promise<ApiBranchProtection[]> {
    this.assertRepoAdmin(actor, access);
    return this.toApiBranchRules(await this.store.branchRules(access.repo.id));
  }

  /** The rule named exactly `name`; 404 when there is none. */
  async getBranchRule(actor: Actor, access: RepoAccess, name: string): Promise<ApiBranchProtection> {
    this.assertRepoAdmin(actor, access);
    const rule = await this.store.branchRuleByName(access.repo.id, name);
    if (!rule) throw new NotFoundError();
    return (await this.toApiBranchRules([rule]))[0]!;
  }

  async createBranchRule(actor: Actor, access: RepoAccess, input: CreateBranchProtectionOption): Promise<ApiBranchProtection> {
    this.assertRepoAdmin(actor, access);
    const opts = acceptInput(CreateBranchProtectionOptionSchema, input);
    if (access.repo.is_archived) throw new LockedError();
    const ruleName = opts.rule_name || opts.branch_name || '';
    if (ruleName === '') throw new BadRequestError('both rule_name and branch_name are empty');
    const exists = () => new ForbiddenError('Branch protection already exist');
    if (await this.store.branchRuleByName(access.repo.id, ruleName)) throw exists();
    const org = isOrganization(access.owner);
    const [push, merge, approvals] = await Promise.all([
      this.userIds(opts.push_whitelist_usernames),
      this.userIds(opts.merge_whitelist_usernames),
      this.userIds(opts.approvals_whitelist_username),
    ]);
    const [pushTeams, mergeTeams, approvalTeams] = org
      ? await Promise.all([this.teamIds(access, opts.push_whitelist_teams), this.teamIds(access, opts.merge_whitelist_teams), this.teamIds(access, opts.approvals_whitelist_teams)])
      : [[], [], []];
    const enablePush = opts.enable_push ?? false;
    const enableWhitelist = enablePush && (opts.enable_push_whitelist ?? false);
    const now = nowUnix();
    const rule: Omit<BranchRule, 'id' | 'repoId' | 'createdUnix'> = {
      ruleName,
      canPush: enablePush,
      enableWhitelist,
      whitelistUserIds: await this.writers(access, push),
      whitelistTeamIds: await this.coveringTeams(access, pushTeams),
      enableMergeWhitelist: opts.enable_merge_whitelist ?? false,
      whitelistDeployKeys: enableWhitelist && (opts.push_whitelist_deploy_keys ?? false),
      mergeWhitelistUserIds: await this.writers(access, merge),
      mergeWhitelistTeamIds: await this.coveringTeams(access, mergeTeams),
      enableStatusCheck: opts.enable_status_check ?? false,
      statusCheckContexts: opts.status_check_contexts ?? [],
      enableApprovalsWhitelist: opts.enable_approvals_whitelist ?? false,
      approvalsWhitelistUserIds: await this.readers(access, approvals),
      approvalsWhitelistTeamIds: await this.coveringTeams(access, approvalTeams),
      requiredApprovals: Math.max(0, opts.required_approvals ?? 0),
      blockOnRejectedReviews: opts.block_on_rejected_reviews ?? false,
      blockOnOfficialReviewRequests: opts.block_on_official_review_requests ?? false,
      blockOnOutdatedBranch: opts.block_on_outdated_branch ?? false,
      dismissStaleApprovals: opts.dismiss_stale_approvals ?? false,
      ignoreStaleApprovals: opts.ignore_stale_approvals ?? false,
      requireSignedCommits: opts.require_signed_commits ?? false,
      protectedFilePatterns: opts.protected_file_patterns ?? '',
      unprotectedFilePatterns: opts.unprotected_file_patterns ?? '',
      applyToAdmins: opts.apply_to_admins ?? false,
      updatedUnix: now,
    };
    let created: BranchRule;
    try {
      created = await this.store.insertBranchRule({ ...branchRuleColumns(rule), rule_name: ruleName, updated_unix: now, repo_id: access.repo.id, created_unix: now });
    } catch (error) {
      if (isUniqueViolation(error)) throw exists();
      throw error;
    }
    return (await this.toApiBranchRules([created]))[0]!;
  }

  /**
   * Changes what the options name. `enable_push` false clears the push whitelist switches; a non-null
   * `status_check_contexts` replaces the list whatever `enable_status_check` says; a whitelist sent replaces it
   * (filtered as on create), one not sent stays.
   */
  async editBranchRule(actor: Actor, access: RepoAccess, name: string, input: EditBranchProtectionOption): Promise<ApiBranchProtection> {
    this.assertRepoAdmin(actor, access);
    const opts = acceptInput(EditBranchProtectionOptionSchema, input);
    if (access.repo.is_archived) throw new LockedError();
    const current = await this.store.branchRuleByName(access.repo.id, name);
    if (!current) throw new NotFoundError();
    const rule: BranchRule = { ...current };
    if (opts.enable_push !== undefined) {
      if (!opts.enable_push) {
        rule.canPush = false;
        rule.enableWhitelist = false;
        rule.whitelistDeployKeys = false;
      } else {
        rule.canPush = true;
        if (opts.enable_push_whitelist !== undefined) {
          if (!opts.enable_push_whitelist) {
            rule.enableWhitelist = false;
            rule.whitelistDeployKeys = false;
          } else {
            rule.enableWhitelist = true;
            if (opts.push_whitelist_deploy_keys !== undefined) rule.whitelistDeployKeys = opts.push_whitelist_deploy_keys;
          }
        }
      }
    }
    if (opts.enable_merge_whitelist !== undefined) rule.enableMergeWhitelist = opts.enable_merge_whitelist;
    if (opts.enable_status_check !== undefined) rule.enableStatusCheck = opts.enable_status_check;
    if (opts.status_check_contexts !== undefined) rule.statusCheckContexts = opts.status_check_contexts;
    if (opts.required_approvals !== undefined && opts.required_approvals >= 0) rule.requiredApprovals = opts.required_approvals;
    if (opts.enable_approvals_whitelist !== undefined) rule.enableApprovalsWhitelist = opts.enable_approvals_whitelist;
    if (opts.block_on_rejected_reviews !== undefined) rule.blockOnRejectedReviews = opts.block_on_rejected_reviews;
    if (opts.block_on_official_review_requests !== undefined) rule.blockOnOfficialReviewRequests = opts.block_on_official_review_requests;
    if (opts.dismiss_stale_approvals !== undefined) rule.dismissStaleApprovals = opts.dismiss_stale_approvals;
    if (opts.ignore_stale_approvals !== undefined) rule.ignoreStaleApprovals = opts.ignore_stale_approvals;
    if (opts.require_signed_commits !== undefined) rule.requireSignedCommits = opts.require_signed_commits;
    if (opts.protected_file_patterns !== undefined) rule.protectedFilePatterns = opts.protected_file_patterns;
    if (opts.unprotected_file_patterns !== undefined) rule.unprotectedFilePatterns = opts.unprotected_file_patterns;
    if (opts.block_on_outdated_branch !== undefined) rule.blockOnOutdatedBranch = opts.block_on_outdated_branch;
    if (opts.apply_to_admins !== undefined) rule.applyToAdmins = opts.apply_to_admins;

    // Every name is checked before anything is written, as Forgejo does.
    const [push, merge, approvals] = await Promise.all([
      opts.push_whitelist_usernames === undefined ? undefined : this.userIds(opts.push_whitelist_usernames),
      opts.merge_whitelist_usernames === undefined ? undefined : this.userIds(opts.merge_whitelist_usernames),
      opts.approvals_whitelist_username === undefined ? undefined : this.userIds(opts.approvals_whitelist_username),
    ]);
    const org = isOrganization(access.owner);
    const teamsOf = (names: string[] | undefined, current: number[]) => (!org ? Promise.resolve([]) : names === undefined ? Promise.resolve(current) : this.teamIds(access, names));
    const [pushTeams, mergeTeams, approvalTeams] = await Promise.all([
      teamsOf(opts.push_whitelist_teams, current.whitelistTeamIds),
      teamsOf(opts.merge_whitelist_teams, current.mergeWhitelistTeamIds),
      teamsOf(opts.approvals_whitelist_teams, current.approvalsWhitelistTeamIds),
    ]);
    // A list that did not change is kept as it is; a changed one keeps only those who may use it.
    rule.whitelistUserIds = sameIds(current.whitelistUserIds, push) ? current.whitelistUserIds : await this.writers(access, push!);
    rule.mergeWhitelistUserIds = sameIds(current.mergeWhitelistUserIds, merge) ? current.mergeWhitelistUserIds : await this.writers(access, merge!);
    rule.approvalsWhitelistUserIds = sameIds(current.approvalsWhitelistUserIds, approvals) ? current.approvalsWhitelistUserIds : await this.readers(access, approvals!);
    rule.whitelistTeamIds = sameIds(current.whitelistTeamIds, pushTeams) ? current.whitelistTeamIds : await this.coveringTeams(access, pushTeams);
    rule.mergeWhitelistTeamIds = sameIds(current.mergeWhitelistTeamIds, mergeTeams) ? current.mergeWhitelistTeamIds : await this.coveringTeams(access, mergeTeams);
    rule.approvalsWhitelistTeamIds = sameIds(current.approvalsWhitelistTeamIds, approvalTeams) ? current.approvalsWhitelistTeamIds : await this.coveringTeams(access, approvalTeams);
    rule.updatedUnix = nowUnix();
    const updated = await this.store.updateBranchRule(current.id, branchRuleColumns(rule));
    if (!updated) throw new NotFoundError();
    return (await this.toApiBranchRules([updated]))[0]!;
  }

  async deleteBranchRule(actor: Actor, access: RepoAccess, name: string): Promise<void> {
    this.assertRepoAdmin(actor, access);
    const rule = await this.store.branchRuleByName(access.repo.id, name);
    if (!rule) throw new NotFoundError();
    if (access.repo.is_archived) throw new LockedError();
    await this.store.deleteBranchRule(access.repo.id, rule.id);
  }

  // ---- tag rules ----

  async listTagRules(actor: Actor, access: RepoAccess): Promise<ApiTagProtection[]> {
    this.assertRepoAdmin(actor, access);
    return this.toApiTagRules(await this.store.tagRules(access.repo.id));
  }

  async getTagRule(actor: Actor, access: RepoAccess, id: number): Promise<ApiTagProtection> {
    this.assertRepoAdmin(actor, access);
    return (await this.toApiTagRules([await this.tagRule(access, id)]))[0]!;
  }

  async createTagRule(actor: Actor, access: RepoAccess, input: CreateTagProtectionOption): Promise<ApiTagProtection> {
    this.assertRepoAdmin(actor, access);
    const opts = acceptInput(CreateTagProtectionOptionSchema, input);
    if (access.repo.is_archived) throw new LockedError();
    const pattern = (opts.name_pattern ?? '').trim();
    if (pattern === '') throw new BadRequestError('name_pattern are empty');
    if ((opts.whitelist_usernames ?? []).length === 0 && (opts.whitelist_teams ?? []).length === 0) {
      throw new BadRequestError('both whitelist_usernames and whitelist_teams are empty');
    }
    if (await this.store.tagRuleByPattern(access.repo.id, pattern)) throw new ForbiddenError('Tag protection already exist');
    const users = await this.userIds(opts.whitelist_usernames);
    const teams = isOrganization(access.owner) ? await this.teamIds(access, opts.whitelist_teams) : [];
    const now = nowUnix();
    const rule = await this.store.insertTagRule({
      repo_id: access.repo.id,
      name_pattern: pattern,
      allowlist_user_ids: JSON.stringify(users),
      allowlist_team_ids: JSON.stringify(teams),
      created_unix: now,
      updated_unix: now,
    });
    return (await this.toApiTagRules([rule]))[0]!;
  }

  /** Changes what the options name; a whitelist sent replaces the old one. */
  async editTagRule(actor: Actor, access: RepoAccess, id: number, input: EditTagProtectionOption): Promise<ApiTagProtection> {
    this.assertRepoAdmin(actor, access);
    const opts = acceptInput(EditTagProtectionOptionSchema, input);
    if (access.repo.is_archived) throw new LockedError();
    const current = await this.tagRule(access, id);
    const changes: { name_pattern?: string; allowlist_user_ids?: string; allowlist_team_ids?: string; updated_unix: number } = { updated_unix: nowUnix() };
    if (opts.name_pattern !== undefined) changes.name_pattern = opts.name_pattern;
    if (opts.whitelist_teams !== undefined) changes.allowlist_team_ids = JSON.stringify(isOrganization(access.owner) ? await this.teamIds(access, opts.whitelist_teams) : []);
    if (opts.whitelist_usernames !== undefined) changes.allowlist_user_ids = JSON.stringify(await this.userIds(opts.whitelist_usernames));
    const updated = await this.store.updateTagRule(current.id, changes);
    if (!updated) throw new NotFoundError();
    return (await this.toApiTagRules([updated]))[0]!;
  }

  async deleteTagRule(actor: Actor, access: RepoAccess, id: number): Promise<void> {
    this.assertRepoAdmin(actor, access);
    const rule = await this.tagRule(access, id);
    await this.store.deleteTagRule(access.repo.id, rule.id);
  }

  private async tagRule(access: RepoAccess, id: number): Promise<TagRule> {
    const rule = Number.isSafeInteger(id) && id > 0 ? await this.store.tagRuleById(access.repo.id, id) : undefined;
    if (!rule) throw new NotFoundError();
    return rule;
  }

  // ---- names ----

  /** Forgejo's `GetUserIDsByNames`: every name must be an account (any case), else 422. */
  private async userIds(names: readonly string[] | undefined): Promise<number[]> {
    if (!names || names.length === 0) return [];
    const found = await this.ctx.port(UsersPort).byLowerNames(names.map((n) => n.toLowerCase()));
    const byName = new Map(found.map((u) => [u.lower_name, u.id]));
    return names.map((name) => {
      const id = byName.get(name.toLowerCase());
      if (id === undefined) throw new ValidationError('', `user does not exist [uid: 0, name: ${name}]`);
      return id;
    });
  }

  /** Forgejo's `GetTeamIDsByNames` in the repository's organization: every name must be a team, else 422. */
  private async teamIds(access: RepoAccess, names: readonly string[] | undefined): Promise<number[]> {
    if (!names || names.length === 0) return [];
    const byName = await this.teams.idsByNames(access.owner.id, names.map((n) => n.toLowerCase()));
    return names.map((name) => {
      const id = byName.get(name.toLowerCase());
      if (id === undefined) throw new ValidationError('', `team does not exist [org_id ${access.owner.id}, team_id 0, name: ${name}]`);
      return id;
    });
  }

  /** The users among `ids` who may write code in the repository (Forgejo drops the others silently). */
  private writers(access: RepoAccess, ids: readonly number[]): Promise<number[]> {
    return this.usersWith(access, ids, (a) => unitMode(a, 'repo.code') >= AccessMode.Write);
  }

  /**
   * The users among `ids` given read access to the repository (the approvals whitelist): Forgejo's
   * `IsRepoReader` counts the owner and explicit grants, not what a public repository shows everyone; the
   * repository is judged as if private for that.
   */
  private readers(access: RepoAccess, ids: readonly number[]): Promise<number[]> {
    return this.usersWith(access, ids, (a) => a.mode >= AccessMode.Read, true);
  }

  private async usersWith(access: RepoAccess, ids: readonly number[], keep: (a: RepoAccess) => boolean, explicitOnly = false): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const users = await this.ctx.port(UsersPort).byIds(unique);
    const accessService = this.ctx.service(AccessService);
    const kept: number[] = [];
    // One permission read per named user: a whitelist is a handful of names an administrator typed.
    for (const id of unique) {
      const user = users.get(id);
      const repo = explicitOnly ? { ...access.repo, is_private: 1 } : access.repo;
      if (user && keep(await accessService.repoAccess(userActor(user), repo, access.owner))) kept.push(id);
    }
    return kept;
  }

  /** The teams among `ids` that cover the repository (Forgejo keeps only those). */
  private async coveringTeams(access: RepoAccess, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const covering = await this.teams.coveringRepo(access.owner.id, access.repo.id, ids);
    return [...new Set(ids)].filter((id) => covering.has(id));
  }

  /** The names of every user and team the rules name, in two queries. */
  private async names(userIds: number[], teamIds: number[]): Promise<ProtectionNames> {
    const [users, teams] = await Promise.all([
      userIds.length > 0 ? this.ctx.port(UsersPort).byIds(userIds) : Promise.resolve(new Map<number, User>()),
      this.teams.namesByIds(teamIds),
    ]);
    return { users: new Map([...users].map(([id, u]) => [id, u.name])), teams };
  }

  private async toApiBranchRules(rules: BranchRule[]): Promise<ApiBranchProtection[]> {
    const names = await this.names(
      rules.flatMap((r) => [...r.whitelistUserIds, ...r.mergeWhitelistUserIds, ...r.approvalsWhitelistUserIds]),
      rules.flatMap((r) => [...r.whitelistTeamIds, ...r.mergeWhitelistTeamIds, ...r.approvalsWhitelistTeamIds]),
    );
    return rules.map((r) => toApiBranchProtection(r, names));
  }

  private async toApiTagRules(rules: TagRule[]): Promise<ApiTagProtection[]> {
    const names = await this.names(
      rules.flatMap((r) => r.allowlistUserIds),
      rules.flatMap((r) => r.allowlistTeamIds),
    );
    return rules.map((r) => toApiTagProtection(r, names));
  }
}

/** Does `next` (absent: unchanged) name the same ids as `current`, in any order? */
function sameIds(current: readonly number[], next: readonly number[] | undefined): boolean {
  if (next === undefined) return true;
  const a = [...current].sort((x, y) => x - y);
  const b = [...next].sort((x, y) => x - y);
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
