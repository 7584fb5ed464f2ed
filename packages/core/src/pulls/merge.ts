import './events.js';
import './merge-events.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import { isSiteAdmin, signedInUser, userActor, type Actor } from '../access/actor.js';
import { AccessMode, unitMode } from '../access/permissions.js';
import { AccessService } from '../access/service.js';
import { ConflictError, ForbiddenError, LockedError, NotFoundError, PreconditionFailedError } from '../errors.js';
import { RefConflictError, type RefUpdate, type RepoKey } from '../git/backend.js';
import type { MergeSignature } from '../git/merge-types.js';
import { hasLineTerminator, identTail } from '../git/ident.js';
import { isUniqueViolation, nowUnix } from '../storage/database.js';
import { acceptInput } from '../validation/validate.js';
import { webUrl } from '../urls.js';
import type { RepoAccess } from '../repos/access.js';
import { GitIntentStore } from '../repos/intents.js';
import { repoKey, ReposService } from '../repos/service.js';
import { ReposPort } from '../repos/port.js';
import { RepoCountersStore } from '../repos/counters.js';
import { viewUnits, type MergeStyle, type PullsUnit } from '../repos/units.js';
import type { Repository } from '../repos/tables.js';
import { UsersPort } from '../users/port.js';
import { QuotaService } from '../quota/service.js';
import { noReplyAddress } from '../users/convert.js';
import type { User } from '../users/tables.js';
import { IssuesService } from '../issues/service.js';
import { IssuesPort } from '../issues/port.js';
import type { Issue } from '../issues/tables.js';
import { MilestonesPort } from '../milestones/port.js';
import { CommentsPort } from '../comments/port.js';
import { COMMENT_TYPES, RefAction } from '../comments/types.js';
import { CommitsPort } from '../commits/port.js';
import { BranchesService } from '../refs/branches.js';
import { ProtectionService, type MergeFacts } from '../protection/service.js';
import { ReviewsPort } from '../reviews/port.js';
import { REVIEW_TYPES } from '../reviews/tables.js';
import { PullsStore } from './store.js';
import { PullsService } from './service.js';
import { PULL_STATUS, pullHeadRef, type Pull, type PullRequest } from './tables.js';
import { MergePullRequestOptionSchema, type MergePullRequestOption } from './merge-schemas.js';
import { addTrailer, composeMergeMessage, MERGE_TEMPLATE_MAX_BYTES, mergeTemplatePaths, templateDescription, type MergeMessageFacts } from './merge-message.js';
import { PullMergeStore, type PullAutoMerge } from './merge-store.js';

/**
 * A merge Forgejo refuses with 405 Method Not Allowed (not allowed to merge, a style the repository does not allow,
 * a draft, a pull request not in a mergeable state). Core has no such kind of error: the route turns it into 405.
 */
export class MergeNotAllowedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeNotAllowedError';
  }
}

/** What a merge request ended with: merged now, or scheduled to merge once the head's checks succeed. */
export type MergeOutcome = 'merged' | 'scheduled';

/** How a merge is checked (Forgejo's MergeCheckType). */
type MergeCheck = 'general' | 'manual' | 'auto';

/** Where a merge's marker ref lives while its database side is written (see `moveBase`). */
const MERGED_MARKER_PREFIX = 'refs/repohost/merged/';

/** Commits of a pushed range searched for the merge commit that took a pull request's head in. */
const MANUAL_MERGE_SEARCH = 200;

/** Approvers a merge message names at most (Forgejo's `DEFAULT_MERGE_MESSAGE_MAX_APPROVERS`). */
const MAX_REVIEWED_BY = 10;

/** Statuses read at most to decide whether a head commit's checks all succeeded. */
const STATUS_CONTEXTS_READ = 1000;

/** The git identity of an account, as Forgejo's `NewGitSig` gives it. */
export function gitSignatureOf(user: User, settings: CoreContext['settings']): { name: string; email: string } {
  const safe = (value: string) => value.replace(/[<>\n\r\0]/g, '').trim();
  const name = safe(user.full_name) || safe(user.name) || `user-${user.id}`;
  return { name, email: user.keep_email_private ? noReplyAddress(user, settings) : user.email };
}

/**
 * Merging pull requests (`POST …/pulls/{index}/merge` with every Forgejo style, or scheduling the merge), marking
 * them merged by hand, deleting the head branch after a merge and retargeting the pull requests based on it, and
 * repairing a merge a crash interrupted. Updating from the base (`merge-update.ts`) and running scheduled merges
 * (`auto-merge.ts`) build on the checks and the merge here: the methods without a route are theirs.
 *
 * Merges are computed beside the stored repository (`git merge-tree --write-tree` and `git commit-tree` for
 * merge and squash; a scratch repository borrowing the objects for rebases): the only visible change is the final
 * ref update, made with the expected old id, so a concurrent push makes the merge fail with nothing half done.
 */
export class PullMergeService {
  /** The tail of each pull request's queue of merges and updates, in this process (Forgejo's pullWorkingPool). */
  private readonly working = new Map<number, Promise<unknown>>();

  constructor(private readonly ctx: CoreContext) {}

  get pulls(): PullsService {
    return this.ctx.service(PullsService);
  }

  /** Runs `work` after every earlier merge or update of the same pull request in this process. */
  async oneAtATime<T>(pullId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.working.get(pullId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.working.set(pullId, tail);
    try {
      return await run;
    } finally {
      if (this.working.get(pullId) === tail) this.working.delete(pullId);
    }
  }

  /**
   * With the repository's `autodetect_manual_merge` on, a push that brings a pull request's head into its base
   * marks it merged (Forgejo's manuallyMerged check). Registered once per host, after the pull requests' own
   * handler, so the pull request was checked against the new base first.
   */
  subscribe(): void {
    this.ctx.events.on('repo.pushed', async ({ payload }) => {
      if (!viewUnits(payload.repo.units, this.ctx.settings).pulls?.autodetect_manual_merge) return;
      for (const update of payload.updates) {
        if (!update.ref.startsWith('refs/heads/') || /^0+$/.test(update.newId)) continue;
        await this.detectManualMerges(payload.repo, payload.owner, update.ref.slice('refs/heads/'.length), update.newId);
      }
    });
  }

  /** Open pull requests into `branch` whose head the branch now contains are marked merged by hand. */
  private async detectManualMerges(repo: Repository, owner: User, branch: string, tip: string): Promise<void> {
    const candidates = (await this.ctx.store(PullsStore).withBase(repo.id, branch)).filter((p) => p.head_commit_id !== '');
    if (candidates.length === 0) return;
    const key = repoKey(owner, repo);
    const issues = new Map((await this.ctx.port(IssuesPort).byIds(candidates.map((p) => p.issue_id))).map((i) => [i.id, i]));
    for (const pull of candidates) {
      const issue = issues.get(pull.issue_id);
      if (!issue || issue.is_closed === 1 || !(await this.ctx.git.isAncestor(key, pull.head_commit_id, tip))) continue;
      // The merge commit that took the head in (its parent), else the head itself (a fast-forward).
      const { commits } = await this.ctx.git.commitLog(key, { head: tip, exclude: pull.head_commit_id, detailed: MANUAL_MERGE_SEARCH, countLimit: MANUAL_MERGE_SEARCH });
      const merge = commits.find((c) => c.parents.length > 1 && c.parents.includes(pull.head_commit_id));
      const mergedId = merge?.id ?? pull.head_commit_id;
      const merger = (merge && (await this.ctx.port(UsersPort).byEmail(merge.authorEmail))) ?? owner;
      const actor = userActor(merger);
      const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
      await this.ctx.transaction(async (tx) => {
        const merged = await tx.store(PullMergeStore).markMerged(pull.id, {
          merged_commit_id: mergedId,
          merger_id: merger.id,
          merged_unix: merge ? Math.floor(Date.parse(merge.authorTime) / 1000) || nowUnix() : nowUnix(),
          merge_base: pull.merge_base,
          status: PULL_STATUS.manuallyMerged,
        });
        if (!merged) return;
        await tx.store(PullMergeStore).unschedule(pull.id);
        const closed = await this.closeAsMerged(tx, merger, access, issue);
        tx.emit('pull.merged', { actor, repo, owner, issue: closed, pull: merged });
      });
    }
  }

  /** `GET …/pulls/{index}/merge`: merged or not (404). */
  assertMerged(pull: Pull): void {
    if (pull.pull.has_merged !== 1) throw new NotFoundError();
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

  get protection(): ProtectionService {
    return this.ctx.service(ProtectionService);
  }

  /** What the base branch's protection rule weighs: official reviews, the head's statuses, how far behind it is. */
  private async mergeFacts(access: RepoAccess, pull: Pull): Promise<MergeFacts> {
    const reviews = this.ctx.port(ReviewsPort);
    const issueId = pull.issue.id;
    const [official, fresh, rejected, requested, statuses] = await Promise.all([
      reviews.countApprovals(issueId, { official: true }),
      reviews.countApprovals(issueId, { official: true, ignoreStale: true }),
      reviews.hasOfficial(issueId, REVIEW_TYPES.reject),
      reviews.hasOfficial(issueId, REVIEW_TYPES.request),
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

  /**
   * `POST …/pulls/{index}/merge`. Returns whether it merged now or was scheduled (`merge_when_checks_succeed`:
   * Forgejo answers 201 then).
   */
  async merge(actor: Actor, access: RepoAccess, pull: Pull, input: MergePullRequestOption): Promise<MergeOutcome> {
    const doer = signedInUser(actor);
    const opts = acceptInput(MergePullRequestOptionSchema, input);
    if (access.repo.is_archived === 1) throw new LockedError();
    // Forgejo's EnforceQuotaAPI on the route: the base repository's owner must be within `size:git:all`.
    await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:git:all');
    const style = opts.Do;
    const check: MergeCheck = style === 'manually-merged' ? 'manual' : opts.merge_when_checks_succeed ? 'auto' : 'general';
    const current = await this.checkMergeable(actor, access, pull, check, opts.force_merge === true);
    const unit = this.pullsUnit(access.repo);

    if (style === 'manually-merged') {
      if (!PullMergeService.styleAllowed(unit, style)) throw new MergeNotAllowedError(`${style} is not an allowed merge style for this repository`);
      await this.markManuallyMerged(actor, doer, access, current, opts.MergeCommitID ?? '');
      return 'merged';
    }
    if (!PullMergeService.styleAllowed(unit, style)) throw new MergeNotAllowedError(`${style} is not an allowed merge style for this repository`);

    let message = (opts.MergeTitleField ?? '').trim();
    let extra = (opts.MergeMessageField ?? '').trim();
    if (message === '' || extra === '') {
      const facts = await this.defaultMessageFacts(access, current, style);
      const template = await this.mergeTemplate(access, style);
      if (message === '') message = composeMergeMessage(facts, template).title;
      // The template's lines after the first are the description unless the caller wrote one (an empty field is
      // none: Go clients always send it).
      if (extra === '') extra = (templateDescription(facts, template) ?? '').trim();
    }
    if (extra !== '') message += `\n\n${extra}`;
    const deleteBranch = opts.delete_branch_after_merge ?? unit?.default_delete_branch_after_merge ?? false;

    if (opts.merge_when_checks_succeed) {
      await this.schedule(actor, doer, access, current, style, message, deleteBranch);
      return 'scheduled';
    }

    const merged = await this.performMerge(actor, doer, access, current, style, message, opts.head_commit_id ?? '');
    if (deleteBranch) await this.deleteHeadBranch(actor, doer, access, merged);
    return 'merged';
  }

  /** The title and body Forgejo gives a merge of `style` when the caller names none. */
  async defaultMessage(access: RepoAccess, pull: Pull, style: MergeStyle): Promise<{ title: string; body: string }> {
    return composeMergeMessage(await this.defaultMessageFacts(access, pull, style), await this.mergeTemplate(access, style));
  }

  /** What a merge message of `style` may say of the pull request. */
  private async defaultMessageFacts(access: RepoAccess, pull: Pull, style: MergeStyle): Promise<MergeMessageFacts> {
    const { repo, owner } = access;
    const sameRepo = pull.pull.head_repo_id === repo.id;
    let headOwner: string | undefined = owner.name;
    let headRepo: string | undefined = repo.name;
    if (!sameRepo) {
      const head = await this.ctx.port(ReposPort).byId(pull.pull.head_repo_id);
      const headUser = head && (await this.ctx.port(UsersPort).byId(head.owner_id));
      headOwner = headUser?.name;
      headRepo = head && headUser ? head.name : undefined;
    }
    const poster = await this.ctx.port(UsersPort).byId(pull.issue.poster_id);
    const facts: MergeMessageFacts = {
      style,
      title: pull.issue.name,
      description: pull.issue.content,
      index: pull.issue.index,
      reference: viewUnits(repo.units, this.ctx.settings).external_tracker ? '!' : '#',
      baseOwner: owner.name,
      baseRepo: repo.name,
      baseBranch: pull.pull.base_branch,
      headOwner,
      headRepo,
      headBranch: pull.pull.head_branch,
      sameRepo,
      posterName: poster?.name ?? '',
      htmlUrl: webUrl(this.ctx.settings, `${owner.name}/${repo.name}/pulls/${pull.issue.index}`),
      reviewedBy: await this.reviewedByLines(pull),
    };
    return facts;
  }

  /**
   * `Reviewed-by: Name <email>` lines of the official approvers (Forgejo's defaults: official approvals only, at
   * most ten), for templates' `$ReviewedBy` and the default body.
   */
  private async reviewedByLines(pull: Pull): Promise<string> {
    const approvals = (await this.ctx.port(ReviewsPort).undismissedApprovals(pull.issue.id)).filter((r) => r.official === 1);
    const reviewerIds = [...new Set(approvals.map((r) => r.reviewer_id))].slice(0, MAX_REVIEWED_BY);
    if (reviewerIds.length === 0) return '';
    const reviewers = await this.ctx.port(UsersPort).byIds(reviewerIds);
    return reviewerIds
      .flatMap((id) => {
        const reviewer = reviewers.get(id);
        if (!reviewer) return [];
        const sig = gitSignatureOf(reviewer, this.ctx.settings);
        return [`Reviewed-by: ${sig.name} <${sig.email}>\n`];
      })
      .join('');
  }

  /** The repository's template for `style`, read from its default branch; undefined when it has none. */
  private async mergeTemplate(access: RepoAccess, style: MergeStyle): Promise<string | undefined> {
    if (access.repo.is_empty === 1) return undefined;
    const key = repoKey(access.owner, access.repo);
    for (const path of mergeTemplatePaths(style)) {
      const blob = await this.ctx.git.readObject(key, `refs/heads/${access.repo.default_branch}:${path}`, { maxBytes: MERGE_TEMPLATE_MAX_BYTES });
      if (blob && blob.type === 'blob') return blob.content.toString('utf8');
    }
    return undefined;
  }

  /** The head repository (with its owner), or undefined when it is gone. */
  async headOf(access: RepoAccess, pull: PullRequest): Promise<{ repo: Repository; owner: User } | undefined> {
    if (pull.head_repo_id === access.repo.id) return { repo: access.repo, owner: access.owner };
    const repo = await this.ctx.port(ReposPort).byId(pull.head_repo_id);
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    return repo && owner ? { repo, owner } : undefined;
  }

  /** The commit the head branch names now (refs/pull/{index}/head when the head repository is gone). */
  async headCommit(access: RepoAccess, pull: PullRequest): Promise<{ sha: string; key: RepoKey }> {
    const baseKey = repoKey(access.owner, access.repo);
    const head = await this.headOf(access, pull);
    if (head) {
      const key = repoKey(head.owner, head.repo);
      const ref = `refs/heads/${pull.head_branch}`;
      const sha = (await this.ctx.git.readRefs(key, [ref])).get(ref);
      if (!sha) throw new ConflictError(`head branch ${pull.head_branch} does not exist`);
      return { sha, key };
    }
    const ref = pullHeadRef(pull.index);
    const sha = (await this.ctx.git.readRefs(baseKey, [ref])).get(ref);
    if (!sha) throw new ConflictError('the head of the pull request is gone');
    return { sha, key: baseKey };
  }

  /**
   * Merges with `style` and records it: the base branch moves (only if it is still where the merge started), the
   * pull request is marked merged and its issue closed, then the ref change is recorded as a push.
   */
  async performMerge(actor: Actor, doer: User, access: RepoAccess, pull: Pull, style: MergeStyle, message: string, expectedHead: string): Promise<Pull> {
    return this.oneAtATime(pull.pull.id, async () => {
      const fresh = await this.ctx.store(PullsStore).byIssueId(pull.issue.id);
      if (!fresh) throw new NotFoundError();
      if (fresh.has_merged === 1) throw new ConflictError(alreadyMergedMessage(fresh));
      const key = repoKey(access.owner, access.repo);
      const baseRef = `refs/heads/${fresh.base_branch}`;
      const baseSha = (await this.ctx.git.readRefs(key, [baseRef])).get(baseRef);
      if (!baseSha) throw new ConflictError(`base branch ${fresh.base_branch} does not exist`);
      const head = await this.headCommit(access, fresh);
      if (expectedHead !== '' && expectedHead !== head.sha) throw new ConflictError('head out of date');
      if (head.key.owner !== key.owner || head.key.name !== key.name) await this.ctx.git.copyCommit(head.key, key, head.sha);

      const committer: MergeSignature = { ...gitSignatureOf(doer, this.ctx.settings), when: new Date() };
      const newSha = await this.mergedCommit(key, access, { ...pull, pull: fresh }, style, baseSha, head.sha, message, committer);
      const mergeBase = (await this.ctx.git.mergeBase(key, baseSha, head.sha)) ?? '';
      const updates: RefUpdate[] = [{ ref: baseRef, oldId: baseSha, newId: newSha }];
      await this.moveBase(actor, access, updates, { pullId: fresh.id, mergerId: doer.id }, async (tx) => {
        const merged = await tx.store(PullMergeStore).markMerged(fresh.id, {
          merged_commit_id: newSha,
          merger_id: doer.id,
          merged_unix: nowUnix(),
          merge_base: mergeBase || fresh.merge_base,
          status: fresh.status,
        });
        if (!merged) throw new ConflictError(alreadyMergedMessage(fresh));
        // A scheduled merge is done with once the pull request is merged, however it was.
        await tx.store(PullMergeStore).unschedule(fresh.id);
        const issue = await this.closeAsMerged(tx, doer, access, pull.issue);
        tx.emit('pull.merged', { actor, repo: access.repo, owner: access.owner, issue, pull: merged });
        return { issue, pull: merged };
      });
      const result = (await this.reload(pull)) ?? pull;
      try {
        await this.closeReferencedIssues(result);
      } catch (error) {
        // The merge stands; the issues it names can still be closed by hand.
        console.error(`[repohost] closing the issues pull request ${result.pull.id} references failed:`, error);
      }
      return result;
    });
  }

  /**
   * Issues the pull request says it closes (or reopens) follow once it is merged, by its poster and with the
   * merge commit (Forgejo's handleCloseCrossReferences); an issue still blocked by dependencies stays open.
   */
  private async closeReferencedIssues(merged: Pull): Promise<void> {
    const refs = await this.ctx.port(CommentsPort).closingReferencesFrom(merged.issue.id);
    if (refs.length === 0) return;
    // The latest reference to each issue decides.
    const latest = new Map<number, number>();
    for (const ref of refs) latest.set(ref.issue_id, ref.ref_action);
    const poster = await this.ctx.port(UsersPort).byId(merged.issue.poster_id);
    if (!poster) return;
    const actor = userActor(poster);
    const issues = await this.ctx.port(IssuesPort).byIds([...latest.keys()]);
    for (const issue of issues) {
      const close = latest.get(issue.id) === RefAction.Closes;
      if (close === (issue.is_closed === 1)) continue;
      const repo = await this.ctx.port(ReposPort).byId(issue.repo_id);
      const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
      if (!repo || !owner) continue;
      const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
      try {
        await this.ctx.transaction(async (tx) => {
          const changed = await this.ctx.service(IssuesService).setClosed(tx, poster, access, issue, close, merged.pull.merged_commit_id);
          await tx.port(IssuesPort).recountAfterStateChange(repo.id, changed.milestone_id > 0 ? [changed.milestone_id] : [], { repos: tx.store(RepoCountersStore), milestones: tx.port(MilestonesPort) });
          tx.emit(close ? 'issue.closed' : 'issue.reopened', { actor, repo, owner, issue: changed, commitId: merged.pull.merged_commit_id });
        });
      } catch (error) {
        // Open dependencies keep it open, as Forgejo allows.
        if (!(error instanceof PreconditionFailedError)) throw error;
      }
    }
  }

  private async reload(pull: Pull): Promise<Pull | undefined> {
    const [issue, row] = await Promise.all([this.ctx.port(IssuesPort).byId(pull.issue.id), this.ctx.store(PullsStore).byIssueId(pull.issue.id)]);
    return issue && row ? { issue, pull: row } : undefined;
  }

  /**
   * Moves the base branch and records the result. Two intents come first: the push's (`sync`), and a `merge`
   * intent naming the pull request, whose marker ref (`refs/repohost/merged/{pull}/{merger}`) moves in the same
   * ref transaction as the base: after a crash between the ref update and the database, start-up finds the
   * marker and marks the pull request merged (`repairMerge`). The ref moves only if it is where the merge began
   * (else 409 "merge push out of date", nothing changed); `record` writes the pull request's side in one
   * transaction that also clears the merge intent; the push is then recorded like any other (`repo.pushed`).
   */
  private async moveBase<T>(
    actor: Actor,
    access: RepoAccess,
    updates: RefUpdate[],
    merge: { pullId: number; mergerId: number },
    record: (tx: CoreTransaction) => Promise<T>,
  ): Promise<T> {
    const repos = this.ctx.service(ReposService);
    const intents = this.ctx.store(GitIntentStore);
    const key = repoKey(access.owner, access.repo);
    const zero = '0'.repeat(updates[0]!.newId.length);
    const marker: RefUpdate = { ref: `${MERGED_MARKER_PREFIX}${merge.pullId}/${merge.mergerId}`, oldId: zero, newId: updates[0]!.newId };
    const intent = await repos.beginPush(access);
    const mergeIntent = await intents.insert('merge', key, merge.pullId);
    try {
      await this.ctx.git.updateRefs(key, [...updates, marker]);
    } catch (error) {
      await intents.delete(mergeIntent);
      if (error instanceof RefConflictError) {
        await intents.delete(intent);
        throw new ConflictError('merge push out of date');
      }
      await repos.resyncFromRefs(access.repo, key, intent);
      throw error;
    }
    let result: T;
    try {
      result = await this.ctx.transaction(async (tx) => {
        const done = await record(tx);
        await tx.store(GitIntentStore).delete(mergeIntent);
        return done;
      });
    } finally {
      // Whatever happened to the pull request's side, the refs moved: the repository's bookkeeping follows them.
      await repos.recordPush(actor, access, updates, intent);
    }
    await this.dropMarker(key, marker.ref, marker.newId);
    return result;
  }

  /** Removes a merge marker ref (a leftover one is harmless: the next repair of that pull request removes it). */
  private async dropMarker(key: RepoKey, ref: string, id: string): Promise<void> {
    try {
      await this.ctx.git.updateRefs(key, [{ ref, oldId: id, newId: '0'.repeat(id.length) }]);
    } catch (error) {
      console.error(`[repohost] removing ${ref} failed:`, error);
    }
  }

  /**
   * Start-up repair of a merge a crash interrupted (`merge` intent of pull request `pullId`): when the marker ref
   * shows the base branch moved (and still contains the merge), the pull request is marked merged by the merger
   * the marker names and its issue closed, as the merge would have; the marker goes either way.
   */
  async repairMerge(pullId: number): Promise<boolean> {
    const row = await this.ctx.store(PullMergeStore).pullById(pullId);
    const repo = row && (await this.ctx.port(ReposPort).byId(row.base_repo_id));
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    if (!row || !repo || !owner) return false;
    const key = repoKey(owner, repo);
    const markers = await this.ctx.git.listRefs(key, `${MERGED_MARKER_PREFIX}${pullId}/`);
    let repaired = false;
    for (const marker of markers) {
      const mergerId = Number(marker.ref.slice(marker.ref.lastIndexOf('/') + 1));
      const fresh = await this.ctx.store(PullMergeStore).pullById(pullId);
      const baseRef = `refs/heads/${row.base_branch}`;
      const baseSha = (await this.ctx.git.readRefs(key, [baseRef])).get(baseRef);
      const merger = Number.isSafeInteger(mergerId) ? await this.ctx.port(UsersPort).byId(mergerId) : undefined;
      const landed = baseSha !== undefined && (baseSha === marker.id || (await this.ctx.git.isAncestor(key, marker.id, baseSha)));
      const issue = fresh && (await this.ctx.port(IssuesPort).byId(fresh.issue_id));
      if (fresh && fresh.has_merged === 0 && landed && merger && issue) {
        const actor = userActor(merger);
        const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
        await this.ctx.transaction(async (tx) => {
          const merged = await tx.store(PullMergeStore).markMerged(fresh.id, {
            merged_commit_id: marker.id,
            merger_id: merger.id,
            merged_unix: nowUnix(),
            merge_base: fresh.merge_base,
            status: fresh.status,
          });
          if (!merged) return;
          await tx.store(PullMergeStore).unschedule(fresh.id);
          const closed = await this.closeAsMerged(tx, merger, access, issue);
          tx.emit('pull.merged', { actor, repo, owner, issue: closed, pull: merged });
        });
        repaired = true;
      }
      await this.dropMarker(key, marker.ref, marker.id);
    }
    return repaired;
  }

  /** Closes the issue side of a merged pull request with Forgejo's `merge_pull` timeline event. */
  private async closeAsMerged(tx: CoreTransaction, doer: User, access: RepoAccess, issue: Issue): Promise<Issue> {
    const current = (await tx.port(IssuesPort).byId(issue.id)) ?? issue;
    if (current.is_closed === 1) return current;
    const closed = await this.ctx.service(IssuesService).setClosed(tx, doer, access, current, true, '', { mergePull: true });
    await tx.port(IssuesPort).recountAfterStateChange(access.repo.id, closed.milestone_id > 0 ? [closed.milestone_id] : [], { repos: tx.store(RepoCountersStore), milestones: tx.port(MilestonesPort) });
    return closed;
  }

  /** Computes the commit the base branch moves to for `style`; 409 for conflicts and diverged fast-forwards. */
  private async mergedCommit(
    key: RepoKey,
    access: RepoAccess,
    pull: Pull,
    style: MergeStyle,
    baseSha: string,
    headSha: string,
    message: string,
    committer: MergeSignature,
  ): Promise<string> {
    const git = this.ctx.git;
    switch (style) {
      case 'merge':
      case 'squash': {
        const merged = await git.mergeTree(key, baseSha, headSha);
        if (!merged.tree) {
          if (/unrelated histories/i.test(merged.error ?? '')) throw new ConflictError('Merge UnrelatedHistories: refusing to merge unrelated histories');
          throw new Error(merged.error ?? 'git merge-tree failed');
        }
        if (merged.conflicts.length > 0) throw new ConflictError(`Merge Conflict Error: ${merged.conflicts.join(', ')}`);
        if (style === 'merge') return git.commitTree(key, { tree: merged.tree, parents: [baseSha, headSha], message, author: committer, committer });
        const poster = await this.ctx.port(UsersPort).byId(pull.issue.poster_id);
        const author: MergeSignature = poster ? { ...gitSignatureOf(poster, this.ctx.settings), when: committer.when } : committer;
        let squashMessage = message;
        if (author.name !== committer.name || author.email !== committer.email) {
          // Forgejo's ADD_CO_COMMITTER_TRAILERS (default on): the merger credits the author it commits for.
          const who = `${author.name} <${author.email}>`;
          squashMessage = addTrailer(addTrailer(squashMessage, 'Co-authored-by', who), 'Co-committed-by', who);
        }
        return git.commitTree(key, { tree: merged.tree, parents: [baseSha], message: squashMessage, author, committer });
      }
      case 'fast-forward-only': {
        if (baseSha === headSha || (await git.isAncestor(key, baseSha, headSha))) return headSha;
        throw new ConflictError('Merge DivergingFastForwardOnly: Not possible to fast-forward, aborting');
      }
      case 'rebase':
      case 'rebase-merge': {
        // Nothing to replay when the head already contains the base: its commits go in as they are.
        const rebased = (await git.isAncestor(key, baseSha, headSha)) ? { head: headSha } : await git.rebaseCommits(key, { onto: baseSha, head: headSha, committer });
        if ('conflict' in rebased) throw new ConflictError(`Rebase Error: conflict when rebasing commit ${rebased.conflict}`);
        if (style === 'rebase') return rebased.head === baseSha ? baseSha : this.amendWithTemplate(key, access, pull, rebased.head, committer);
        const tree = (await git.resolveRevision(key, `${rebased.head}^{tree}`))?.id;
        if (!tree) throw new Error('the rebased head has no tree');
        return git.commitTree(key, { tree, parents: [baseSha, rebased.head], message, author: committer, committer });
      }
      case 'manually-merged':
        throw new MergeNotAllowedError(`${style} is not an allowed merge style for this repository`);
    }
  }

  /**
   * A rebase keeps its commits' messages, unless the repository has a REBASE template: then the last commit is
   * written again with the template's message (`$CommitTitle` and `$CommitBody` are its own), as Forgejo amends it.
   */
  private async amendWithTemplate(key: RepoKey, access: RepoAccess, pull: Pull, tipSha: string, committer: MergeSignature): Promise<string> {
    const template = await this.mergeTemplate(access, 'rebase');
    if (template === undefined) return tipSha;
    const tip = await this.ctx.git.readObject(key, tipSha, { maxBytes: 1024 * 1024 });
    if (!tip || tip.type !== 'commit') return tipSha;
    const parsed = parseCommit(tip.content.toString('utf8'));
    if (!parsed) return tipSha;
    const [commitTitle = '', ...rest] = parsed.message.split('\n');
    const facts = await this.defaultMessageFacts(access, pull, 'rebase');
    const { title, body } = composeMergeMessage({ ...facts, extra: { CommitTitle: commitTitle.trim(), CommitBody: rest.join('\n').trim() } }, template);
    if (title === '') return tipSha;
    const message = body !== '' ? `${title}\n\n${body}` : title;
    return this.ctx.git.commitTree(key, { tree: parsed.tree, parents: parsed.parents, message, author: parsed.author, committer });
  }

  /**
   * Forgejo's MergedManually: the pull request is marked merged by `commitId`, which must be a full id of a commit
   * the base branch contains (409 "Wrong commit ID" otherwise). No ref moves.
   */
  private async markManuallyMerged(actor: Actor, doer: User, access: RepoAccess, pull: Pull, commitId: string): Promise<void> {
    const key = repoKey(access.owner, access.repo);
    const width = access.repo.object_format_name === 'sha256' ? 64 : 40;
    const id = commitId.trim().toLowerCase();
    if (id.length !== width || !/^[0-9a-f]+$/.test(id)) throw new ConflictError('Wrong commit ID');
    const commit = await this.ctx.git.readObject(key, id, { maxBytes: 64 * 1024 });
    if (!commit || commit.type !== 'commit') throw new ConflictError('Wrong commit ID');
    const baseRef = `refs/heads/${pull.pull.base_branch}`;
    const baseSha = (await this.ctx.git.readRefs(key, [baseRef])).get(baseRef);
    if (!baseSha || !(await this.ctx.git.isAncestor(key, id, baseSha))) throw new ConflictError('Wrong commit ID');
    const authored = /^author .* (\d+) [+-]\d{4}$/m.exec(commit.content.toString('utf8'));
    await this.oneAtATime(pull.pull.id, () =>
      this.ctx.transaction(async (tx) => {
        const merged = await tx.store(PullMergeStore).markMerged(pull.pull.id, {
          merged_commit_id: id,
          merger_id: doer.id,
          merged_unix: authored ? Number(authored[1]) : nowUnix(),
          merge_base: pull.pull.merge_base,
          status: PULL_STATUS.manuallyMerged,
        });
        if (!merged) throw new ConflictError(alreadyMergedMessage(pull.pull));
        await tx.store(PullMergeStore).unschedule(pull.pull.id);
        const issue = await this.closeAsMerged(tx, doer, access, pull.issue);
        tx.emit('pull.merged', { actor, repo: access.repo, owner: access.owner, issue, pull: merged });
      }),
    );
  }

  /**
   * After a merge, the head branch goes (Forgejo's DeleteBranchAfterMerge): not while other open pull requests use
   * it as their head; 403 for the default branch or without write access to the head repository. Pull requests
   * based on it move to the merged one's base first (`RETARGET_CHILDREN_ON_MERGE`, same repository only).
   */
  async deleteHeadBranch(actor: Actor, doer: User, access: RepoAccess, merged: Pull): Promise<void> {
    const pr = merged.pull;
    // Forgejo's HasUnmergedPullRequestsByHeadInfo: another open pull request still needs the branch.
    const others = (await this.ctx.store(PullsStore).withHead(pr.head_repo_id, pr.head_branch)).filter((p) => p.id !== pr.id);
    if (others.length > 0 && (await this.ctx.port(IssuesPort).byIds(others.map((p) => p.issue_id))).some((i) => i.is_closed === 0)) return;
    const head = await this.headOf(access, pr);
    if (!head) return;
    const headAccess = head.repo.id === access.repo.id ? access : await this.ctx.service(AccessService).repoAccess(actor, head.repo, head.owner);
    if (pr.head_branch === head.repo.default_branch) throw new ForbiddenError('the head branch is the default branch');
    if (unitMode(headAccess, 'repo.code') < AccessMode.Write) throw new ForbiddenError('insufficient permission to delete head branch');
    const ref = `refs/heads/${pr.head_branch}`;
    if (!(await this.ctx.git.readRefs(repoKey(head.owner, head.repo), [ref])).has(ref)) return;
    await this.retargetChildren(actor, doer, access, merged);
    await this.ctx.service(BranchesService).delete(actor, headAccess, pr.head_branch);
    await this.ctx.transaction(async (tx) => {
      await tx.port(CommentsPort).record({ type: COMMENT_TYPES.delete_branch, poster_id: doer.id, issue_id: merged.issue.id, old_ref: pr.head_branch });
    });
  }

  /** Open pull requests into the merged one's head branch move to its base (Forgejo's RetargetChildrenOnMerge). */
  private async retargetChildren(actor: Actor, doer: User, access: RepoAccess, merged: Pull): Promise<void> {
    const pr = merged.pull;
    if (!this.ctx.settings['repository.pull-request'].RETARGET_CHILDREN_ON_MERGE || pr.head_repo_id !== pr.base_repo_id) return;
    const children = await this.ctx.store(PullsStore).withBase(pr.base_repo_id, pr.head_branch);
    if (children.length === 0) return;
    const issues = new Map((await this.ctx.port(IssuesPort).byIds(children.map((c) => c.issue_id))).map((i) => [i.id, i]));
    const open = children.filter((c) => issues.get(c.issue_id)?.is_closed === 0);
    const moved = await this.ctx.transaction(async (tx) => {
      const result: Pull[] = [];
      for (const child of open) {
        const issue = issues.get(child.issue_id)!;
        const pull = await tx.store(PullsStore).update(child.id, { base_branch: pr.base_branch, status: PULL_STATUS.checking });
        await tx.port(CommentsPort).record({ type: COMMENT_TYPES.change_target_branch, poster_id: doer.id, issue_id: issue.id, old_ref: child.base_branch, new_ref: pr.base_branch });
        tx.emit('pull.retargeted', { actor, repo: access.repo, owner: access.owner, issue, pull, previousBase: child.base_branch });
        result.push({ issue, pull });
      }
      return result;
    });
    for (const pull of moved) {
      try {
        await this.pulls.refresh(pull);
      } catch (error) {
        console.error(`[repohost] checking pull request ${pull.pull.id} after its retarget failed:`, error);
      }
    }
  }

  // ---- scheduled merges ----

  /**
   * Stores a merge to run once the head's checks succeed (409 when one is stored already). `pull.merge_scheduled`
   * lets the scheduled merges (`auto-merge.ts`) try it at once, as Forgejo's queue does: they may have succeeded.
   */
  private async schedule(actor: Actor, doer: User, access: RepoAccess, pull: Pull, style: MergeStyle, message: string, deleteBranch: boolean): Promise<PullAutoMerge> {
    try {
      return await this.ctx.transaction(async (tx) => {
        const row = await tx.store(PullMergeStore).schedule({ pull_id: pull.pull.id, doer_id: doer.id, merge_style: style, message, delete_branch_after_merge: deleteBranch });
        await tx.port(CommentsPort).record({ type: COMMENT_TYPES.pull_scheduled_merge, poster_id: doer.id, issue_id: pull.issue.id });
        tx.emit('pull.merge_scheduled', { actor, repo: access.repo, owner: access.owner, issue: pull.issue, pull: pull.pull });
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`pull request is already scheduled to auto merge when checks succeed [pull_id: ${pull.pull.id}]`);
      throw error;
    }
  }
}

/** Forgejo's ErrPullRequestHasMerged text. */
function alreadyMergedMessage(pr: PullRequest): string {
  return `pull request has merged [id: ${pr.id}, issue_id: ${pr.issue_id}, head_repo_id: ${pr.head_repo_id}, base_repo_id: ${pr.base_repo_id}, head_branch: ${pr.head_branch}, base_branch: ${pr.base_branch}]`;
}

/** The parts of a raw commit object an amend keeps: tree, parents, author (with its time and zone), message. */
function parseCommit(raw: string): { tree: string; parents: string[]; author: MergeSignature; message: string } | undefined {
  const split = raw.indexOf('\n\n');
  const header = (split < 0 ? raw : raw.slice(0, split)).split('\n');
  const message = split < 0 ? '' : raw.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: MergeSignature | undefined;
  for (const line of header) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('author ')) {
      // Scanned from the end (users push these lines): the name runs to the last ` <` after any `>` before the tail's.
      const tail = identTail(line, false);
      const before = tail && tail.close > 0 ? line.lastIndexOf('>', tail.close - 1) : -1;
      const open = tail && tail.close >= 2 ? line.lastIndexOf(' <', tail.close - 2) : -1;
      if (tail && open >= 7 && open > before && !hasLineTerminator(line.slice(7, open))) {
        author = { name: line.slice(7, open), email: line.slice(open + 2, tail.close), when: new Date(Number(tail.seconds) * 1000), offset: tail.offset };
      }
    }
  }
  return tree && author ? { tree, parents, author, message } : undefined;
}
