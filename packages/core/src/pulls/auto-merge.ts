import type { CoreContext } from '../context.js';
import { isSiteAdmin, signedInUser, userActor, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { ForbiddenError, LockedError, NotFoundError } from '../errors.js';
import { requiredStatusState } from '../protection/index.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { MergeStyle } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { IssuesPort } from '../issues/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { PULL_STATUS, type Pull } from './tables.js';
import { PullMergeService } from './merge.js';
import { MergeNotAllowedError, PullMergeChecks } from './merge-checks.js';
import { PullMergeCommits } from './merge-commit.js';
import { MergedHeadBranch } from './merge-head-branch.js';
import { PullMergeStore, type PullAutoMerge } from './merge-store.js';
import './merge-events.js';
import type { StatusListener } from '../commits/index.js';

/**
 * Scheduled merges (`merge_when_checks_succeed`): tried when they are scheduled and whenever a status is reported
 * for a pull request's head commit; merged as the one who scheduled them once the head's checks succeed and the
 * pull request is mergeable (Forgejo's automerge service). `DELETE …/merge` cancels one.
 */
export class PullAutoMergeService implements StatusListener {
  constructor(private readonly ctx: CoreContext) {}

  private get merges(): PullMergeService {
    return this.ctx.service(PullMergeService);
  }

  private get checks(): PullMergeChecks {
    return this.ctx.service(PullMergeChecks);
  }

  /** A merge just scheduled is tried at once: its checks may have succeeded already. Registered once per host. */
  subscribe(): void {
    this.ctx.events.on('pull.merge_scheduled', async ({ payload }) => {
      await this.tryScheduled(payload.pull.id);
    });
  }

  /**
   * `DELETE …/pulls/{index}/merge`: cancels the scheduled merge (404 when there is none). Whoever scheduled it may,
   * and the repository's administrators (403 for others).
   */
  async cancelScheduled(actor: Actor, access: RepoAccess, pull: Pull): Promise<void> {
    const doer = signedInUser(actor);
    if (access.repo.is_archived === 1) throw new LockedError();
    const scheduled = await this.ctx.store(PullMergeStore).scheduled(pull.pull.id);
    if (!scheduled) throw new NotFoundError();
    if (scheduled.doer_id !== doer.id && access.mode < AccessMode.Admin && !isSiteAdmin(actor)) {
      throw new ForbiddenError('user has no permission to cancel the scheduled auto merge');
    }
    await this.ctx.transaction(async (tx) => {
      if (!(await tx.store(PullMergeStore).unschedule(pull.pull.id))) throw new NotFoundError();
      await tx.port(CommentsPort).record({ type: COMMENT_TYPES.pull_cancel_scheduled_merge, poster_id: doer.id, issue_id: pull.issue.id });
    });
  }

  /** The scheduled merge of a pull request, if any. */
  scheduledMerge(pull: Pull): Promise<PullAutoMerge | undefined> {
    return this.ctx.store(PullMergeStore).scheduled(pull.pull.id);
  }

  /**
   * A status was reported for commit `sha` of repository `repoId`: scheduled merges of pull requests whose head is
   * that commit are tried. Failures are reported, never thrown (the status itself stands).
   */
  async statusReported(repoId: number, sha: string): Promise<void> {
    let due: PullAutoMerge[];
    try {
      due = await this.ctx.store(PullMergeStore).scheduledForHead(repoId, sha);
    } catch (error) {
      console.error(`[repohost] looking for merges scheduled on ${sha} failed:`, error);
      return;
    }
    for (const scheduled of due) {
      try {
        await this.tryScheduled(scheduled.pull_id);
      } catch (error) {
        console.error(`[repohost] the scheduled merge of pull request ${scheduled.pull_id} failed:`, error);
      }
    }
  }

  /**
   * Whether the head's checks allow a scheduled merge: the contexts the base's rule requires when it checks
   * statuses, else every status reported for the commit (none reported: nothing failed).
   */
  private async checksSucceeded(access: RepoAccess, pull: Pull, sha: string): Promise<boolean> {
    const statuses = await this.checks.latestStatuses(access.repo.id, sha);
    const rule = await this.checks.protection.ruleFor(access.repo, pull.pull.base_branch);
    if (rule?.enableStatusCheck) return requiredStatusState(statuses, rule.statusCheckContexts) === 'success';
    return statuses.every((s) => s.state === 'success');
  }

  /**
   * Merges a pull request whose merge is scheduled if its head's checks all succeeded and it is mergeable, as the
   * one who scheduled it (Forgejo's handlePullRequestAutoMerge). Returns true when it merged.
   */
  async tryScheduled(pullId: number): Promise<boolean> {
    const scheduled = await this.ctx.store(PullMergeStore).scheduled(pullId);
    if (!scheduled) return false;
    const row = await this.ctx.store(PullMergeStore).pullById(pullId);
    if (!row || row.has_merged === 1) return false;
    const [issue, doer, repo] = await Promise.all([
      this.ctx.port(IssuesPort).byId(row.issue_id),
      this.ctx.port(UsersPort).byId(scheduled.doer_id),
      this.ctx.port(ReposPort).byId(row.base_repo_id),
    ]);
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    if (!issue || !doer || !repo || !owner || issue.is_closed === 1) return false;
    const actor = userActor(doer);
    const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
    let pull: Pull = { issue, pull: row };
    const head = await this.ctx.service(PullMergeCommits).headCommit(access, row);
    if (row.head_commit_id !== head.sha || row.status === PULL_STATUS.checking) pull = await this.checks.pulls.refresh(pull);
    if (!(await this.checksSucceeded(access, pull, pull.pull.head_commit_id || head.sha))) return false;
    try {
      pull = await this.checks.checkMergeable(actor, access, pull, 'auto');
    } catch (error) {
      if (error instanceof MergeNotAllowedError || error instanceof NotFoundError) return false;
      throw error;
    }
    const style = scheduled.merge_style as MergeStyle;
    if (!PullMergeChecks.styleAllowed(this.checks.pullsUnit(repo), style)) return false;
    const merged = await this.merges.performMerge(actor, doer, access, pull, style, scheduled.message, '');
    if (scheduled.delete_branch_after_merge === 1) {
      try {
        await this.ctx.service(MergedHeadBranch).deleteHeadBranch(actor, doer, access, merged);
      } catch (error) {
        console.error(`[repohost] deleting the head branch of pull request ${pullId} after its scheduled merge failed:`, error);
      }
    }
    return true;
  }
}
