import type { CoreContext } from '../context.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { MethodNotAllowedError, NotFoundError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import { viewUnits, type MergeStyle, type PullsUnit } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { IssuesPort } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import { CommitsPort } from '../commits/index.js';
import { ProtectionService, type MergeFacts } from '../protection/index.js';
import './review-reader.js';
import { PullsService } from './service.js';
import { PULL_STATUS, type Pull, type PullRequest } from './tables.js';

/**
 * A merge Forgejo refuses with 405 Method Not Allowed (not allowed to merge, a style the repository does not allow,
 * a draft, a pull request not in a mergeable state).
 */
export class MergeNotAllowedError extends MethodNotAllowedError {
  constructor(message: string) {
    super(message);
    this.name = 'MergeNotAllowedError';
  }
}

/** How a merge is checked (Forgejo's MergeCheckType). */
export type MergeCheck = 'general' | 'manual' | 'auto';

/** Statuses read at most to decide whether a head commit's checks all succeeded. */
const STATUS_CONTEXTS_READ = 1000;

/** Forgejo's ErrPullRequestHasMerged text. */
export function alreadyMergedMessage(pr: PullRequest): string {
  return `pull request has merged [id: ${pr.id}, issue_id: ${pr.issue_id}, head_repo_id: ${pr.head_repo_id}, base_repo_id: ${pr.base_repo_id}, head_branch: ${pr.head_branch}, base_branch: ${pr.base_branch}]`;
}

/**
 * Whether a pull request may be merged, and how (Forgejo's CheckPullMergeable): the styles the repository allows,
 * work-in-progress titles, the mergeable state, the base branch's protection rule (reviews, statuses) and open
 * dependencies. Merging, scheduled merges and updates from the base ask here.
 */
export class PullMergeChecks {
  constructor(private readonly ctx: CoreContext) {}

  get pulls(): PullsService {
    return this.ctx.service(PullsService);
  }

  get protection(): ProtectionService {
    return this.ctx.service(ProtectionService);
  }

  pullsUnit(repo: Repository): PullsUnit | undefined {
    return viewUnits(repo.units, this.ctx.settings).pulls;
  }

  /** Forgejo's IsMergeStyleAllowed. */
  static styleAllowed(unit: PullsUnit | undefined, style: MergeStyle): boolean {
    if (!unit) return false;
    switch (style) {
      case 'merge':
        return unit.allow_merge_commits;
      case 'rebase':
        return unit.allow_rebase;
      case 'rebase-merge':
        return unit.allow_rebase_explicit;
      case 'squash':
        return unit.allow_squash_merge;
      case 'fast-forward-only':
        return unit.allow_fast_forward_only_merge;
      case 'manually-merged':
        return unit.allow_manual_merge;
    }
  }

  isWorkInProgress(issue: Issue): boolean {
    const title = issue.name.toUpperCase();
    return this.ctx.settings['repository.pull-request'].WORK_IN_PROGRESS_PREFIXES.some((prefix) => prefix !== '' && title.startsWith(prefix.toUpperCase()));
  }

  /** What the base branch's protection rule weighs: official reviews, the head's statuses, how far behind it is. */
  private async mergeFacts(access: RepoAccess, pull: Pull): Promise<MergeFacts> {
    const reviews = this.ctx.provider('pulls.reviews');
    const issueId = pull.issue.id;
    const [official, fresh, { rejected, requested }, statuses] = await Promise.all([
      reviews.countApprovals(issueId, { official: true }),
      reviews.countApprovals(issueId, { official: true, ignoreStale: true }),
      reviews.blockingReviews(issueId),
      this.latestStatuses(access.repo.id, pull.pull.head_commit_id),
    ]);
    let changedProtectedFiles: string[] = [];
    try {
      const parsed: unknown = JSON.parse(pull.pull.changed_protected_files || '[]');
      if (Array.isArray(parsed)) changedProtectedFiles = parsed.filter((p): p is string => typeof p === 'string');
    } catch {
      changedProtectedFiles = [];
    }
    return {
      officialApprovals: official,
      staleOfficialApprovals: official - fresh,
      officialRejections: rejected ? 1 : 0,
      officialRequestsPending: requested ? 1 : 0,
      statuses,
      commitsBehind: pull.pull.commits_behind,
      changedProtectedFiles,
    };
  }

  /** The latest status of each context of commit `sha` in the repository. */
  async latestStatuses(repoId: number, sha: string): Promise<{ context: string; state: string }[]> {
    if (sha === '') return [];
    return (await this.ctx.port(CommitsPort).latestStatusesOf(repoId, sha, { page: 1, limit: STATUS_CONTEXTS_READ })).items;
  }

  /**
   * Forgejo's CheckPullMergeable, in its order: merged (405), closed (404), who may merge (405, the rule's merge
   * whitelist when the base is protected), then for a real merge: draft, mergeable state, the protection rule
   * (scheduled merges skip it; `force_merge` lets site administrators, and repository administrators when the
   * rule does not apply to them, past it), signed commits, open dependencies (all 405).
   */
  async checkMergeable(actor: Actor, access: RepoAccess, pull: Pull, check: MergeCheck, force = false): Promise<Pull> {
    if (pull.pull.has_merged === 1) throw new MergeNotAllowedError('');
    if (pull.issue.is_closed === 1) throw new NotFoundError();
    const rule = await this.protection.ruleFor(access.repo, pull.pull.base_branch);
    if (!(await this.protection.isUserAllowedToMerge(actor, access, rule))) throw new MergeNotAllowedError('User not allowed to merge PR');
    if (check === 'manual') return pull;
    if (this.isWorkInProgress(pull.issue)) throw new MergeNotAllowedError('Work in progress PRs cannot be merged');
    let current = pull;
    // Not checked since the last push: check now rather than refuse ("try again later").
    if (current.pull.status === PULL_STATUS.checking) current = await this.pulls.refresh(current);
    const status = current.pull.status;
    if (status !== PULL_STATUS.mergeable && status !== PULL_STATUS.empty) throw new MergeNotAllowedError('Please try again later');
    if (rule) {
      const blocker = this.protection.mergeBlockers(rule, await this.mergeFacts(access, current));
      const skip = check === 'auto' || (force && (isSiteAdmin(actor) || (!rule.applyToAdmins && access.mode >= AccessMode.Admin)));
      if (blocker !== undefined && !skip) throw new MergeNotAllowedError(`not allowed to merge [reason: ${blocker}]`);
      // RepoHost does not sign the commits it writes.
      if (rule.requireSignedCommits) throw new MergeNotAllowedError(`Protected branch ${current.pull.base_branch} requires signed commits but this merge would not be signed`);
    }
    if ((await this.ctx.port(IssuesPort).countOpenDependencies(current.issue.id)) > 0) throw new MergeNotAllowedError('is blocked by an open dependency');
    return current;
  }
}
