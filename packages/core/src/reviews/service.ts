import type { CoreContext, CoreTransaction } from '../context.js';
import { actorUser, isSiteAdmin, userActor, type Actor } from '../access/actor.js';
import { AccessMode, repoPermission, unitMode, type RepoPermission } from '../access/permissions.js';
import { AccessPort } from '../access/port.js';
import { issueWebUrl } from '../comments/convert.js';
import { CommentsPort } from '../comments/port.js';
import type { Comment } from '../comments/tables.js';
import { COMMENT_TYPES } from '../comments/types.js';
import { ForbiddenError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { IssuesPort } from '../issues/port.js';
import { ReactionsPort } from '../reactions/port.js';
import { OrgsPort } from '../orgs/port.js';
import { teamUnits } from '../orgs/team-convert.js';
import type { Team } from '../orgs/tables.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { firstMatchingRule } from '../protection/service.js';
import { ProtectionPort } from '../protection/port.js';
import type { BranchRule } from '../protection/tables.js';
import { PullsPort } from '../pulls/port.js';
import type { Pull, PullRequest } from '../pulls/tables.js';
import type { RepoAccess } from '../repos/access.js';
import { repoWebPath } from '../repos/convert.js';
import { repoKey } from '../repos/service.js';
import { FULL_HEX_ID, type RepoKey } from '../git/backend.js';
import { isUniqueViolation, nowUnix } from '../storage/database.js';
import { UsersPort } from '../users/port.js';
import { GHOST_USER } from '../users/system.js';
import { isOrganization, type User } from '../users/tables.js';
import { acceptInput } from '../validation/validate.js';
import type { ApiView } from '../wire.js';
import { toApiPullReview, toApiPullReviewComment } from './convert.js';
import './events.js';
import { cutDiffAroundLine } from './patch.js';
import {
  CreatePullReviewCommentReplyOptionsSchema,
  CreatePullReviewCommentSchema,
  CreatePullReviewOptionsSchema,
  DismissPullReviewOptionsSchema,
  PullReviewRequestOptionsSchema,
  SubmitPullReviewOptionsSchema,
  type ApiPullReview,
  type ApiPullReviewComment,
  type CreatePullReviewComment,
  type CreatePullReviewCommentReplyOptions,
  type CreatePullReviewOptions,
  type DismissPullReviewOptions,
  type PullReviewRequestOptions,
  type SubmitPullReviewOptions,
} from './schemas.js';
import { ReviewsStore, type ApprovalFilter } from './store.js';
import { REVIEW_TYPES, type Review } from './tables.js';

/** Lines of the file's diff a line comment keeps above it, its own included (Forgejo's UI.CodeCommentLines). */
const CODE_COMMENT_LINES = 4;
/** How much of a file's diff is read to cut a comment's excerpt from. */
const MAX_FILE_DIFF_BYTES = 4 * 1024 * 1024;
/** Most line comments one review request may carry. */
const MAX_COMMENTS_PER_REVIEW = 250;
/** Most reviewers and teams one request may name. */
const MAX_REVIEWERS_PER_REQUEST = 100;
const ID_PATTERN = /^\d{1,16}$/;
/** A commit a review says it looked at: hexadecimal, at most a SHA-256 id. */
const COMMIT_ID = /^[0-9a-fA-F]{4,64}$/;

/** A line comment to record: where it points (`line` negative on the base's side), what it says. */
interface CodeCommentDraft {
  path: string;
  line: number;
  body: string;
}

/** Requested reviewers and review count of one pull request, as its API view shows them. */
export interface ReviewSummary {
  requestedReviewers: User[];
  requestedTeams: Team[];
  /** Submitted reviews (Forgejo's `review_comments`). */
  reviewComments: number;
}

/** What the base branch's protection rule says about reviews; without a rule, writers' approvals are official. */
export type ReviewRule = Pick<BranchRule, 'enableApprovalsWhitelist' | 'approvalsWhitelistUserIds' | 'approvalsWhitelistTeamIds' | 'dismissStaleApprovals' | 'ignoreStaleApprovals'>;

function parseId(id: string | number): number {
  const number = typeof id === 'number' ? id : ID_PATTERN.test(id) ? Number(id) : NaN;
  return Number.isSafeInteger(number) && number > 0 ? number : 0;
}

/** Forgejo's 422 with a plain message. */
function unprocessable(message: string): ValidationError {
  return new ValidationError('', message);
}

/** The stored line of a comment: the new side's number, or the old side's negated. */
function lineOf(input: Pick<CreatePullReviewComment, 'new_position' | 'old_position'>): number {
  const oldLine = input.old_position ?? 0;
  const newLine = input.new_position ?? 0;
  if (!Number.isSafeInteger(oldLine) || !Number.isSafeInteger(newLine)) throw new ValidationError('new_position', 'out of range');
  return oldLine > 0 ? -oldLine : Math.max(newLine, 0);
}

/**
 * Pull request reviews, as Forgejo's: readers who are signed in review (not approving or rejecting their own pull
 * request); a pending review is its author's alone until submitted; only a reviewer's latest approval or rejection
 * is official, and only when their approval counts (write on code, or the protection rule's whitelist); reviews of
 * an older head are stale. Review requests name users or teams and leave a timeline entry.
 */
export class ReviewsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ReviewsStore {
    return this.ctx.store(ReviewsStore);
  }

  /** Reviews of an older head turn stale when the head moves; accounts and teams take their reviews along. */
  subscribe(): void {
    this.ctx.events.withinTransaction('pull.synchronized', async ({ payload }, tx) => {
      const changed = await this.contentChanged(repoKey(payload.owner, payload.repo), payload.before, payload.after);
      await this.headMoved(tx, payload.actor, payload.pull, payload.issue.id, payload.before, payload.after, changed);
    });
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => tx.store(ReviewsStore).deleteOfReviewer(payload.user.id));
    this.ctx.events.withinTransaction('team.deleted', async ({ payload }, tx) => tx.store(ReviewsStore).deleteOfTeam(payload.team.id));
  }

  /** The protection rule of the pull request's base branch (an exact name before a glob), as far as reviews care. */
  async reviewRuleOf(scope: Pick<CoreTransaction, 'port'>, pull: PullRequest): Promise<ReviewRule | undefined> {
    return firstMatchingRule(await scope.port(ProtectionPort).branchRules(pull.base_repo_id), pull.base_branch);
  }

  // ---- reads ----

  /** The review `id` of the pull request: NotFound when absent, elsewhere, or someone else's pending review. */
  async resolve(actor: Actor, _access: RepoAccess, pull: Pull, id: string | number): Promise<Review> {
    const number = parseId(id);
    const review = number ? await this.store.byId(number) : undefined;
    if (!review || review.issue_id !== pull.issue.id || !this.maySee(actor, review)) throw new NotFoundError('The target couldn\'t be found.');
    return review;
  }

  private maySee(actor: Actor, review: Review): boolean {
    if (review.type !== REVIEW_TYPES.pending) return true;
    const user = actorUser(actor);
    return user !== null && (user.id === review.reviewer_id || isSiteAdmin(actor));
  }

  /** A page of the pull request's reviews and requests, oldest first (others' pending reviews left out). */
  list(actor: Actor, _access: RepoAccess, pull: Pull, paging: Paging = {}): Promise<Page<Review>> {
    const user = actorUser(actor);
    const viewerId = isSiteAdmin(actor) ? undefined : (user?.id ?? 0);
    return this.store.ofIssue(pull.issue.id, viewerId, clampPage(this.ctx.settings, paging));
  }

  /** The API view of reviews of one pull request, in a fixed number of queries. */
  async toApi(access: RepoAccess, pull: Pull, reviews: readonly Review[], view: ApiView): Promise<ApiPullReview[]> {
    if (reviews.length === 0) return [];
    const ids = reviews.map((r) => r.id);
    const comments = this.ctx.port(CommentsPort);
    const [users, teams, counts, entries] = await Promise.all([
      this.ctx.port(UsersPort).byIds(reviews.map((r) => r.reviewer_id).filter((id) => id !== 0)),
      this.ctx.port(OrgsPort).teamsByIds(reviews.map((r) => r.reviewer_team_id).filter((id) => id > 0)),
      comments.countReviewCodeComments(ids),
      comments.reviewTimelineEntries(ids),
    ]);
    const teamsById = new Map(teams.map((t) => [t.id, t]));
    const pullUrl = issueWebUrl(view, repoWebPath(access.owner, access.repo), pull.issue);
    return reviews.map((review) =>
      toApiPullReview(
        review,
        {
          reviewer: review.reviewer_id !== 0 ? (users.get(review.reviewer_id) ?? GHOST_USER) : null,
          team: teamsById.get(review.reviewer_team_id) ?? null,
          codeComments: counts.get(review.id) ?? 0,
          timelineCommentId: entries.get(review.id) ?? 0,
          pullUrl,
        },
        view,
      ),
    );
  }

  async toApiOne(access: RepoAccess, pull: Pull, review: Review, view: ApiView): Promise<ApiPullReview> {
    return (await this.toApi(access, pull, [review], view))[0]!;
  }

  /** The line comments of a review, oldest first, as the API shows them. */
  async comments(_actor: Actor, access: RepoAccess, pull: Pull, review: Review, view: ApiView): Promise<ApiPullReviewComment[]> {
    const rows = await this.ctx.port(CommentsPort).reviewCodeComments([review.id]);
    return this.commentsToApi(access, pull, review, rows, view);
  }

  /** One line comment of the review: NotFound unless it belongs to it. */
  async comment(_actor: Actor, _access: RepoAccess, _pull: Pull, review: Review, id: string | number): Promise<Comment> {
    const number = parseId(id);
    const comment = number ? await this.ctx.port(CommentsPort).byId(number) : undefined;
    if (!comment || comment.review_id !== review.id || comment.type !== COMMENT_TYPES.code) throw new NotFoundError('The target couldn\'t be found.');
    return comment;
  }

  async commentsToApi(access: RepoAccess, pull: Pull, review: Pick<Review, 'id' | 'type'>, rows: readonly Comment[], view: ApiView): Promise<ApiPullReviewComment[]> {
    if (rows.length === 0) return [];
    const users = await this.ctx.port(UsersPort).byIds([...rows.map((c) => c.poster_id), ...rows.map((c) => c.resolve_doer_id).filter((id) => id > 0)]);
    const pullUrl = issueWebUrl(view, repoWebPath(access.owner, access.repo), pull.issue);
    return rows.map((c) =>
      toApiPullReviewComment(
        c,
        {
          poster: users.get(c.poster_id) ?? GHOST_USER,
          resolver: c.resolve_doer_id > 0 ? (users.get(c.resolve_doer_id) ?? GHOST_USER) : null,
          review,
          pullUrl,
        },
        view,
      ),
    );
  }

  // ---- what the merge code and the pull request view ask ----

  /** How many approvals the pull request has, not dismissed (official ones, fresh ones, whitelisted ones as asked). */
  approvals(pull: Pull | PullRequest, filter: ApprovalFilter = { official: true }): Promise<number> {
    return this.store.countApprovals(issueIdOf(pull), filter);
  }

  /** Does an official request for changes stand (not dismissed)? */
  hasRejection(pull: Pull | PullRequest): Promise<boolean> {
    return this.store.hasOfficial(issueIdOf(pull), REVIEW_TYPES.reject);
  }

  /** Is an official review request still open? */
  hasOfficialRequest(pull: Pull | PullRequest): Promise<boolean> {
    return this.store.hasOfficial(issueIdOf(pull), REVIEW_TYPES.request);
  }

  /**
   * Requested reviewers (users whose latest stand is a request), requested teams and the number of submitted
   * reviews of each pull request, in a fixed number of queries (for the PullRequest view of a page of them).
   */
  async reviewSummaries(issueIds: readonly number[], scope: Pick<CoreTransaction, 'store' | 'port'> = this.ctx): Promise<Map<number, ReviewSummary>> {
    const result = new Map<number, ReviewSummary>();
    if (issueIds.length === 0) return result;
    const [standings, counts] = await Promise.all([scope.store(ReviewsStore).standingsOf(issueIds), scope.port(CommentsPort).countReviews(issueIds)]);
    // Latest stand per (issue, reviewer): rows come oldest first.
    const latest = new Map<string, Review>();
    const teamRequests: Review[] = [];
    for (const review of standings) {
      if (review.reviewer_team_id > 0) {
        if (review.type === REVIEW_TYPES.request) teamRequests.push(review);
      } else if (review.reviewer_id !== 0) latest.set(`${review.issue_id}:${review.reviewer_id}`, review);
    }
    const requested = [...latest.values()].filter((r) => r.type === REVIEW_TYPES.request);
    const [users, teams] = await Promise.all([
      scope.port(UsersPort).byIds(requested.map((r) => r.reviewer_id)),
      scope.port(OrgsPort).teamsByIds(teamRequests.map((r) => r.reviewer_team_id)),
    ]);
    const teamsById = new Map(teams.map((t) => [t.id, t]));
    for (const id of issueIds) result.set(id, { requestedReviewers: [], requestedTeams: [], reviewComments: counts.get(id) ?? 0 });
    for (const r of requested) {
      const user = users.get(r.reviewer_id);
      if (user) result.get(r.issue_id)?.requestedReviewers.push(user);
    }
    for (const r of teamRequests) {
      const team = teamsById.get(r.reviewer_team_id);
      const summary = result.get(r.issue_id);
      if (team && summary && !summary.requestedTeams.some((t) => t.id === team.id)) summary.requestedTeams.push(team);
    }
    return result;
  }

  // ---- writes ----

  private signedIn(actor: Actor, access: RepoAccess): User {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    if (access.repo.is_archived) throw new LockedError();
    return user;
  }

  /**
   * Forgejo's preparePullReviewType: the review type an `event` asks for, refusing to approve or reject one's own
   * pull request and a body-less review that needs one.
   */
  private reviewTypeOf(user: User, pull: Pull, event: string | undefined, body: string, hasComments: boolean): number {
    const isPoster = pull.issue.poster_id === user.id;
    const blank = body.trim() === '';
    switch (event) {
      case 'APPROVED':
        if (isPoster) throw unprocessable('approve your own pull is not allowed');
        return REVIEW_TYPES.approve;
      case 'REQUEST_CHANGES':
        if (isPoster) throw unprocessable('reject your own pull is not allowed');
        if (blank) throw unprocessable(`review event ${event} requires a body`);
        return REVIEW_TYPES.reject;
      case 'COMMENT':
        if (blank && !hasComments) throw unprocessable(`review event ${event} requires a body or a comment`);
        return REVIEW_TYPES.comment;
      default:
        if (blank) throw unprocessable(`review event ${event ?? ''} requires a body`);
        return REVIEW_TYPES.pending;
    }
  }

  /** The pull request's head commit: the ref the base repository keeps for it, else what the last check saw. */
  private async headOf(access: RepoAccess, pull: Pull): Promise<string> {
    const ref = `refs/pull/${pull.pull.index}/head`;
    const refs = await this.ctx.git.readRefs(repoKey(access.owner, access.repo), [ref]);
    return refs.get(ref) ?? pull.pull.head_commit_id;
  }

  /** What each account may do on the repository, in a fixed number of queries. */
  private async permissionsOf(access: RepoAccess, users: readonly User[], scope: Pick<CoreTransaction, 'port'> = this.ctx): Promise<Map<number, RepoPermission>> {
    const grants = await scope.port(AccessPort).grantsOfUsers(users.map((u) => u.id), access.repo.id, access.owner.id);
    const result = new Map<number, RepoPermission>();
    for (const user of users) {
      const userGrants = grants.get(user.id) ?? { member: false, mode: AccessMode.None };
      result.set(user.id, repoPermission(userActor(user), access.repo, access.owner, userGrants));
    }
    return result;
  }

  /** Forgejo's IsOfficialReviewer: whitelisted by the base branch's rule, or (without one) a writer on code. */
  private async isOfficialReviewer(scope: Pick<CoreTransaction, 'port'>, access: RepoAccess, pull: PullRequest, user: User): Promise<boolean> {
    const rule = await this.reviewRuleOf(scope, pull);
    if (rule?.enableApprovalsWhitelist) {
      if (rule.approvalsWhitelistUserIds.includes(user.id)) return true;
      return (await scope.port(OrgsPort).teamsOfMember(user.id, rule.approvalsWhitelistTeamIds)).size > 0;
    }
    const permission = (await this.permissionsOf(access, [user], scope)).get(user.id);
    return permission !== undefined && unitMode(permission, 'repo.code') >= AccessMode.Write;
  }

  /** The diff excerpt of each drafted comment (one git process for all their paths); '' for file-level comments. */
  private async excerpts(access: RepoAccess, pull: Pull, head: string, drafts: readonly CodeCommentDraft[]): Promise<string[]> {
    const base = pull.pull.merge_base;
    const withLines = drafts.filter((d) => d.line !== 0);
    if (withLines.length === 0 || !base || !head) return drafts.map(() => '');
    let diffs = new Map<string, string>();
    try {
      diffs = await this.ctx.git.fileDiffs(repoKey(access.owner, access.repo), base, head, [...new Set(withLines.map((d) => d.path))], MAX_FILE_DIFF_BYTES);
    } catch {
      // A head or base gone from the repository: the comments keep no excerpt.
    }
    return drafts.map((d) => (d.line === 0 ? '' : cutDiffAroundLine(diffs.get(d.path) ?? '', Math.abs(d.line), d.line < 0, CODE_COMMENT_LINES)));
  }

  /** Line comments of a review request, checked. */
  private drafts(comments: readonly CreatePullReviewComment[]): CodeCommentDraft[] {
    if (comments.length > MAX_COMMENTS_PER_REVIEW) throw new ValidationError('comments', `at most ${MAX_COMMENTS_PER_REVIEW} comments`);
    return comments.map((c) => this.draft(c));
  }

  private draft(c: CreatePullReviewComment): CodeCommentDraft {
    const path = (c.path ?? '').replace(/^\/+/, '');
    if (path === '' || path.includes('\0') || path.length > 4096) throw new ValidationError('path', 'Required');
    const body = c.body ?? '';
    if (body.trim() === '') throw new ValidationError('body', 'Required');
    return { path, line: lineOf(c), body };
  }

  /** Records line comments in a review (their excerpts and commits computed beforehand). */
  private async insertCodeComments(tx: CoreTransaction, user: User, pull: Pull, review: Review, drafts: readonly CodeCommentDraft[], patches: readonly string[], commitId: string): Promise<Comment[]> {
    const comments = tx.port(CommentsPort);
    const created: Comment[] = [];
    for (const [i, draft] of drafts.entries()) {
      // A comment on a line the review already discusses joins that conversation: same commit and excerpt.
      const first = draft.line !== 0 ? await comments.firstReviewCommentAt(review.id, draft.path, draft.line) : undefined;
      created.push(
        await comments.record({
          type: COMMENT_TYPES.code,
          poster_id: user.id,
          issue_id: pull.issue.id,
          content: draft.body,
          line: draft.line,
          tree_path: draft.path,
          commit_sha: first?.commit_sha ?? commitId,
          patch: first?.patch ?? patches[i] ?? '',
          invalidated: first?.invalidated ?? 0,
          review_id: review.id,
        }),
      );
    }
    return created;
  }

  /**
   * Creates a review (`POST …/pulls/{index}/reviews`): its line comments go into the actor's pending review (one
   * is started when there is none), which is then submitted as `event` says, or stays pending without one.
   */
  async create(actor: Actor, access: RepoAccess, pull: Pull, input: CreatePullReviewOptions): Promise<Review> {
    const user = this.signedIn(actor, access);
    const opts = acceptInput(CreatePullReviewOptionsSchema, input);
    const drafts = this.drafts(opts.comments ?? []);
    const body = opts.body ?? '';
    const type = this.reviewTypeOf(user, pull, opts.event, body, drafts.length > 0);
    this.refuseClosed(pull, type);
    if (opts.commit_id && !COMMIT_ID.test(opts.commit_id)) throw new ValidationError('commit_id', 'invalid commit id');
    const head = await this.headOf(access, pull);
    const commitId = opts.commit_id || head;
    const patches = await this.excerpts(access, pull, head, drafts);
    // Two requests may start the actor's pending review at once; the one that loses the race runs again with it.
    return retryOnUnique(() => this.ctx.transaction(async (tx) => {
      const reviews = tx.store(ReviewsStore);
      let pending = await reviews.pendingOf(pull.issue.id, user.id);
      let codeComments: Comment[] = [];
      if (drafts.length > 0) {
        pending ??= await reviews.insert({ type: REVIEW_TYPES.pending, reviewer_id: user.id, issue_id: pull.issue.id, commit_id: commitId });
        codeComments = await this.insertCodeComments(tx, user, pull, pending, drafts, patches, commitId);
      }
      if (type === REVIEW_TYPES.pending) {
        return pending
          ? reviews.update(pending.id, { content: body, commit_id: commitId })
          : reviews.insert({ type: REVIEW_TYPES.pending, reviewer_id: user.id, issue_id: pull.issue.id, content: body, commit_id: commitId });
      }
      return this.submitIn(tx, actor, user, access, pull, pending, type, body, commitId, head, codeComments);
    }));
  }

  /** Submits the actor's pending review (`POST …/reviews/{id}`) as `event` says. */
  async submit(actor: Actor, access: RepoAccess, pull: Pull, review: Review, input: SubmitPullReviewOptions): Promise<Review> {
    const user = this.signedIn(actor, access);
    const opts = acceptInput(SubmitPullReviewOptionsSchema, input);
    if (review.type !== REVIEW_TYPES.pending || review.reviewer_id !== user.id) throw unprocessable('only a pending review can be submitted');
    const codeComments = await this.ctx.port(CommentsPort).reviewCodeComments([review.id]);
    const body = opts.body ?? '';
    const type = this.reviewTypeOf(user, pull, opts.event, body, codeComments.length > 0);
    if (type === REVIEW_TYPES.pending) throw unprocessable('review stay pending');
    this.refuseClosed(pull, type);
    const head = await this.headOf(access, pull);
    return this.ctx.transaction(async (tx) => {
      const current = await tx.store(ReviewsStore).pendingOf(pull.issue.id, user.id);
      if (!current || current.id !== review.id) throw unprocessable('only a pending review can be submitted');
      return this.submitIn(tx, actor, user, access, pull, current, type, body, head, head, codeComments);
    });
  }

  /** Approving or rejecting a closed or merged pull request is refused, as Forgejo's ErrSubmitReviewOnClosedPR. */
  private refuseClosed(pull: Pull, type: number): void {
    if ((type === REVIEW_TYPES.approve || type === REVIEW_TYPES.reject) && (pull.issue.is_closed === 1 || pull.pull.has_merged === 1)) {
      throw unprocessable("can't submit review for a closed or merged PR");
    }
  }

  /**
   * Forgejo's SubmitReview, inside a transaction: the pending review (or a new one) takes the type, body and
   * commit; an approval or rejection becomes the reviewer's one official stand when their approval counts, and
   * clears requests of the teams they belong to; a timeline entry records it.
   */
  private async submitIn(
    tx: CoreTransaction,
    actor: Actor,
    user: User,
    access: RepoAccess,
    pull: Pull,
    pending: Review | undefined,
    type: number,
    body: string,
    commitId: string,
    head: string,
    codeComments: Comment[],
  ): Promise<Review> {
    const reviews = tx.store(ReviewsStore);
    const standing = type === REVIEW_TYPES.approve || type === REVIEW_TYPES.reject;
    let official = false;
    if (standing) {
      await reviews.clearOfficial(pull.issue.id, { reviewerId: user.id });
      official = await this.isOfficialReviewer(tx, access, pull.pull, user);
    }
    const stale = standing && head !== '' && commitId !== head;
    const fields = { type, content: body, commit_id: commitId, official: official ? 1 : 0, stale: stale ? 1 : 0 };
    const review = pending ? await reviews.updatePending(pending.id, fields) : await reviews.insert({ ...fields, reviewer_id: user.id, issue_id: pull.issue.id });
    if (!review) throw unprocessable('only a pending review can be submitted');
    const comment = await tx.port(CommentsPort).record({ type: COMMENT_TYPES.review, poster_id: user.id, issue_id: pull.issue.id, content: body, review_id: review.id });
    if (standing && isOrganization(access.owner)) {
      const teamRequests = await reviews.teamRequests(pull.issue.id);
      const mine = await tx.port(OrgsPort).teamsOfMember(user.id, teamRequests.map((r) => r.reviewer_team_id));
      await reviews.deleteByIds(teamRequests.filter((r) => mine.has(r.reviewer_team_id)).map((r) => r.id));
    }
    await this.recountConversation(tx, pull.issue.id);
    const issue = await tx.port(IssuesPort).markUpdated(pull.issue.id, nowUnix());
    tx.emit('pull.reviewed', { actor, repo: access.repo, owner: access.owner, issue, pull: pull.pull, review, comment, codeComments });
    return review;
  }

  /** Deletes a review and its comments (`DELETE …/reviews/{id}`): its reviewer or a site administrator may. */
  async delete(actor: Actor, access: RepoAccess, pull: Pull, review: Review): Promise<void> {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    if (!isSiteAdmin(actor) && user.id !== review.reviewer_id) throw new ForbiddenError('only admin and user itself can delete a review');
    if (review.type === REVIEW_TYPES.request) throw unprocessable('review request can not be deleted using this method');
    await this.ctx.transaction(async (tx) => {
      const removed = await tx.port(CommentsPort).deleteOfReview(pull.issue.id, review.id);
      for (const id of removed) await tx.port(ReactionsPort).deleteOfComment(id);
      const reviews = tx.store(ReviewsStore);
      await reviews.delete(review.id);
      if (review.official === 1) await reviews.restoreOfficial(pull.issue.id, review.reviewer_id);
      await this.recountConversation(tx, pull.issue.id);
    });
  }

  /**
   * Adds a line comment to a review (`POST …/reviews/{id}/comments`): to one's own pending review, or, on a
   * submitted one, as a reply in its conversation.
   */
  async addComment(actor: Actor, access: RepoAccess, pull: Pull, review: Review, input: CreatePullReviewComment): Promise<Comment> {
    const user = this.signedIn(actor, access);
    const opts = acceptInput(CreatePullReviewCommentSchema, input);
    if (review.type === REVIEW_TYPES.request) throw unprocessable('a review request takes no comments');
    if (review.type === REVIEW_TYPES.pending && review.reviewer_id !== user.id) throw new NotFoundError('The target couldn\'t be found.');
    this.refuseLocked(access, pull);
    const draft = this.draft(opts);
    return this.commentInto(actor, user, access, pull, review, draft);
  }

  /** Replies to a review's line comment (`POST …/pulls/{index}/comments/{id}/replies`): same path, line and review. */
  async reply(actor: Actor, access: RepoAccess, pull: Pull, commentId: string | number, input: CreatePullReviewCommentReplyOptions): Promise<{ comment: Comment; review: Review }> {
    const user = this.signedIn(actor, access);
    const opts = acceptInput(CreatePullReviewCommentReplyOptionsSchema, input);
    const number = parseId(commentId);
    const original = number ? await this.ctx.port(CommentsPort).byId(number) : undefined;
    const review = original && original.review_id > 0 ? await this.store.byId(original.review_id) : undefined;
    if (!original || original.issue_id !== pull.issue.id || original.type !== COMMENT_TYPES.code || !review || !this.maySee(actor, review)) {
      throw new NotFoundError('The target couldn\'t be found.');
    }
    this.refuseLocked(access, pull);
    const body = opts.body ?? '';
    if (body.trim() === '') throw new ValidationError('body', 'Required');
    const comment = await this.commentInto(actor, user, access, pull, review, { path: original.tree_path, line: original.line, body });
    return { comment, review };
  }

  private refuseLocked(access: RepoAccess, pull: Pull): void {
    if (pull.issue.is_locked === 1 && unitMode(access, 'repo.pulls') < AccessMode.Write) throw new ForbiddenError('You cannot comment on a locked issue.');
  }

  private async commentInto(actor: Actor, user: User, access: RepoAccess, pull: Pull, review: Review, draft: CodeCommentDraft): Promise<Comment> {
    const head = await this.headOf(access, pull);
    const commitId = review.commit_id || head;
    const [patch = ''] = await this.excerpts(access, pull, review.commit_id || head, [draft]);
    return this.ctx.transaction(async (tx) => {
      const [comment] = await this.insertCodeComments(tx, user, pull, review, [draft], [patch], commitId);
      if (review.type !== REVIEW_TYPES.pending) {
        await this.recountConversation(tx, pull.issue.id);
        tx.emit('pull.review_comment_created', { actor, repo: access.repo, owner: access.owner, issue: pull.issue, pull: pull.pull, review, comment: comment! });
      }
      return comment!;
    });
  }

  /** Deletes a review's line comment: its poster or a writer on pull requests may. */
  async deleteComment(actor: Actor, access: RepoAccess, pull: Pull, review: Review, comment: Comment): Promise<void> {
    const user = this.signedIn(actor, access);
    if (user.id !== comment.poster_id && unitMode(access, 'repo.pulls') < AccessMode.Write) throw new ForbiddenError('user may not delete this comment');
    await this.ctx.transaction(async (tx) => {
      await tx.port(CommentsPort).delete(comment.id);
      await tx.port(ReactionsPort).deleteOfComment(comment.id);
    });
  }

  /**
   * Marks a line comment's conversation resolved or not (`POST …/pulls/comments/{id}/resolve|unresolve`): the
   * pull request's poster, writers and official reviewers may. A no-op when it already is.
   */
  async markConversation(actor: Actor, access: RepoAccess, commentId: string | number, resolved: boolean): Promise<void> {
    const user = this.signedIn(actor, access);
    const number = parseId(commentId);
    const comment = number ? await this.ctx.port(CommentsPort).byId(number) : undefined;
    const issue = comment ? await this.ctx.port(IssuesPort).byId(comment.issue_id) : undefined;
    const pullRow = issue ? await this.ctx.port(PullsPort).byIssueId(issue.id) : undefined;
    const review = comment && comment.review_id > 0 ? await this.store.byId(comment.review_id) : undefined;
    if (
      !comment ||
      !issue ||
      !pullRow ||
      issue.repo_id !== access.repo.id ||
      comment.type !== COMMENT_TYPES.code ||
      unitMode(access, 'repo.pulls') < AccessMode.Read ||
      (review !== undefined && !this.maySee(actor, review))
    ) {
      throw new NotFoundError('The target couldn\'t be found.');
    }
    const allowed =
      user.id === issue.poster_id || unitMode(access, 'repo.pulls') >= AccessMode.Write || (await this.isOfficialReviewer(this.ctx, access, pullRow, user));
    if (!allowed) throw new ForbiddenError('user may not resolve this conversation');
    if (resolved === (comment.resolve_doer_id !== 0)) return;
    await this.ctx.port(CommentsPort).setResolver(comment.id, resolved ? user.id : 0);
  }

  /**
   * Dismisses an approval or rejection, or takes the dismissal back (`POST …/reviews/{id}/dismissals|undismissals`):
   * repository administrators may, while the pull request is open. `priors` dismisses the reviewer's earlier
   * reviews too. A dismissal leaves a timeline entry with its message.
   */
  async dismiss(actor: Actor, access: RepoAccess, pull: Pull, review: Review, input: DismissPullReviewOptions, dismissed: boolean): Promise<Review> {
    const user = this.signedIn(actor, access);
    const opts = acceptInput(DismissPullReviewOptionsSchema, input);
    if (access.mode < AccessMode.Admin) throw new ForbiddenError('Must be repo admin');
    if (review.type !== REVIEW_TYPES.approve && review.type !== REVIEW_TYPES.reject) {
      throw new ForbiddenError("not need to dismiss this review because it's type is not Approve or change request");
    }
    if (pull.issue.is_closed === 1 || pull.pull.has_merged === 1) throw new ForbiddenError("can't dismiss a review on a closed or merged pull request");
    return this.ctx.transaction(async (tx) => {
      const reviews = tx.store(ReviewsStore);
      await reviews.setDismissed([review.id], dismissed);
      if (dismissed && opts.priors) {
        const priors = await reviews.undismissed(pull.issue.id, { reviewerId: review.reviewer_id });
        await reviews.setDismissed(priors.filter((r) => r.id < review.id).map((r) => r.id), true);
      }
      const updated = (await reviews.byId(review.id))!;
      if (dismissed) {
        const comment = await tx.port(CommentsPort).record({ type: COMMENT_TYPES.dismiss_review, poster_id: user.id, issue_id: pull.issue.id, content: opts.message ?? '', review_id: review.id });
        tx.emit('pull.review_dismissed', { actor, repo: access.repo, owner: access.owner, issue: pull.issue, pull: pull.pull, review: updated, comment });
      }
      return updated;
    });
  }

  /**
   * Asks users and teams for a review, or withdraws the requests (`POST|DELETE …/requested_reviewers`). Every name
   * is checked before anything changes (404 for an unknown account or team, 422 for one that may not be asked);
   * each change leaves a `review_request` timeline entry. Returns the requests made.
   */
  async request(actor: Actor, access: RepoAccess, pull: Pull, input: PullReviewRequestOptions, add: boolean): Promise<Review[]> {
    const doer = this.signedIn(actor, access);
    const opts = acceptInput(PullReviewRequestOptionsSchema, input);
    const names = [...new Set(opts.reviewers ?? [])];
    const teamNames = isOrganization(access.owner) ? [...new Set(opts.team_reviewers ?? [])] : [];
    if (names.length + teamNames.length > MAX_REVIEWERS_PER_REQUEST) throw new ValidationError('reviewers', `at most ${MAX_REVIEWERS_PER_REQUEST} reviewers`);
    const usersPort = this.ctx.port(UsersPort);
    const [byEmail, byName] = await Promise.all([
      usersPort.byEmails(names.filter((n) => n.includes('@'))),
      usersPort.byLowerNames(names.filter((n) => !n.includes('@')).map((n) => n.toLowerCase())),
    ]);
    const namedUsers = new Map(byName.map((u) => [u.lower_name, u]));
    const reviewers: User[] = [];
    for (const name of names) {
      const user = name.includes('@') ? byEmail.get(name.toLowerCase()) : namedUsers.get(name.toLowerCase());
      if (!user) throw new NotFoundError(`User '${name}' not exist`);
      if (!reviewers.some((r) => r.id === user.id)) reviewers.push(user);
    }
    const teams: Team[] = [];
    for (const name of teamNames) {
      const team = await this.ctx.port(OrgsPort).teamByName(access.owner.id, name);
      if (!team) throw new NotFoundError(`Team '${name}' not exist`);
      if (!teams.some((t) => t.id === team.id)) teams.push(team);
    }
    const mayChange = await this.mayChangeRequests(doer, access, pull);
    const permissions = await this.permissionsOf(access, reviewers);
    const standings = new Map<number, Review | undefined>();
    for (const reviewer of reviewers) standings.set(reviewer.id, await this.store.standingOf(pull.issue.id, reviewer.id));
    const invalid = (reason: string) => unprocessable(`${reason} [user_id: ${doer.id}, repo_id: ${access.repo.id}]`);
    for (const reviewer of reviewers) {
      if (isOrganization(reviewer)) throw invalid("Organization can't be added as reviewer");
      const last = standings.get(reviewer.id);
      if (add) {
        const permission = permissions.get(reviewer.id);
        if (!permission || unitMode(permission, 'repo.pulls') < AccessMode.Read || reviewer.is_active !== 1) throw invalid("Reviewer can't read");
        if (reviewer.id === pull.issue.poster_id && pull.issue.original_author_id === 0) throw invalid("poster of pr can't be reviewer");
        if (mayChange) continue;
        if (doer.id === pull.issue.poster_id && pull.issue.original_author_id === 0 && last !== undefined && last.type !== REVIEW_TYPES.request) continue;
        throw invalid("Doer can't choose reviewer");
      }
      if (mayChange) continue;
      if (last?.type === REVIEW_TYPES.request && last.reviewer_id === doer.id) continue;
      throw invalid("Doer can't remove reviewer");
    }
    for (const team of teams) {
      if (add && access.repo.is_private === 1 && !(await this.ctx.port(OrgsPort).teamHasRepo(team, access.repo))) throw invalid("Reviewing team can't read repo");
      if (!mayChange) throw invalid(add ? "Doer can't choose reviewer" : "Doer can't remove reviewer");
    }
    if (add && (pull.issue.is_closed === 1 || pull.pull.has_merged === 1) && reviewers.length + teams.length > 0) {
      throw new ForbiddenError("can't request review for a closed or merged PR");
    }
    const officials = new Map<number, boolean>();
    for (const reviewer of reviewers) officials.set(reviewer.id, await this.isOfficialReviewer(this.ctx, access, pull.pull, reviewer));
    const doerOfficial = teams.length > 0 ? await this.isOfficialReviewer(this.ctx, access, pull.pull, doer) : false;
    const rule = teams.length > 0 ? await this.reviewRuleOf(this.ctx, pull.pull) : undefined;

    return this.ctx.transaction(async (tx) => {
      const reviews = tx.store(ReviewsStore);
      const comments = tx.port(CommentsPort);
      const made: Review[] = [];
      const base = { actor, repo: access.repo, owner: access.owner, issue: pull.issue, pull: pull.pull };
      for (const reviewer of reviewers) {
        const last = await reviews.standingOf(pull.issue.id, reviewer.id);
        const official = officials.get(reviewer.id) === true;
        if (add) {
          // Asked already: nothing changes.
          if (last?.type === REVIEW_TYPES.request) continue;
          if (official) await reviews.clearOfficial(pull.issue.id, { reviewerId: reviewer.id });
          const review = await reviews.insert({ type: REVIEW_TYPES.request, reviewer_id: reviewer.id, issue_id: pull.issue.id, official: official ? 1 : 0 });
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_id: reviewer.id, review_id: review.id });
          made.push(review);
          tx.emit('pull.review_requested', { ...base, requestedReviewer: reviewer, requestedTeam: null, removed: false, comment });
        } else {
          if (last?.type !== REVIEW_TYPES.request) continue;
          await reviews.delete(last.id);
          if (official) await reviews.restoreOfficial(pull.issue.id, reviewer.id);
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_id: reviewer.id, removed_assignee: 1 });
          tx.emit('pull.review_requested', { ...base, requestedReviewer: reviewer, requestedTeam: null, removed: true, comment });
        }
      }
      for (const team of teams) {
        const existing = await reviews.teamRequestOf(pull.issue.id, team.id);
        if (add) {
          if (existing) continue;
          const official = isOfficialTeam(rule, team) || doerOfficial;
          if (official) await reviews.clearOfficial(pull.issue.id, { teamId: team.id });
          const review = await reviews.insert({ type: REVIEW_TYPES.request, reviewer_team_id: team.id, issue_id: pull.issue.id, official: official ? 1 : 0 });
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_team_id: team.id, review_id: review.id });
          made.push(review);
          tx.emit('pull.review_requested', { ...base, requestedReviewer: null, requestedTeam: team, removed: false, comment });
        } else {
          if (!existing) continue;
          await reviews.delete(existing.id);
          const comment = await comments.record({ type: COMMENT_TYPES.review_request, poster_id: doer.id, issue_id: pull.issue.id, assignee_team_id: team.id, removed_assignee: 1 });
          tx.emit('pull.review_requested', { ...base, requestedReviewer: null, requestedTeam: team, removed: true, comment });
        }
      }
      return made;
    });
  }

  /** `issue.num_comments` counts the conversation: plain comments and submitted reviews (Forgejo's recount). */
  private async recountConversation(tx: CoreTransaction, issueId: number): Promise<void> {
    await tx.port(IssuesPort).setNumComments(issueId, await tx.port(CommentsPort).countConversation(issueId));
  }

  /**
   * Forgejo's CanDoerChangeReviewRequests: the pull request's poster, the repository's owner, its collaborators,
   * and members of its organization's teams that read pull requests.
   */
  private async mayChangeRequests(doer: User, access: RepoAccess, pull: Pull): Promise<boolean> {
    if (doer.id === pull.issue.poster_id || doer.id === access.owner.id) return true;
    const grants = (await this.ctx.port(AccessPort).grantsOfUsers([doer.id], access.repo.id, access.owner.id)).get(doer.id);
    if (!grants || grants.mode === AccessMode.None) return false;
    return grants.units ? (grants.units['repo.pulls'] ?? AccessMode.None) >= AccessMode.Read : true;
  }

  /**
   * Did the head's content change between two commits (Forgejo's checkIfPRContentChanged)? A rebase or amend that
   * leaves every file as it was keeps reviews fresh; when in doubt, it changed.
   */
  private async contentChanged(key: RepoKey, before: string, after: string): Promise<boolean> {
    if (!FULL_HEX_ID.test(before) || !FULL_HEX_ID.test(after) || /^0+$/.test(before)) return true;
    try {
      return (await this.ctx.git.changedFiles(key, before, after)).length > 0;
    } catch {
      return true;
    }
  }

  /**
   * The head moved (a push). When its content changed, reviews of another commit turn stale and, with the base
   * rule's `dismiss_stale_approvals`, standing approvals are dismissed with a timeline entry; when it did not,
   * reviews of the old head move to the new one.
   */
  private async headMoved(tx: CoreTransaction, actor: Actor, pull: PullRequest, issueId: number, before: string, head: string, changed: boolean): Promise<void> {
    const reviews = tx.store(ReviewsStore);
    if (!changed) {
      await reviews.moveToCommit(issueId, before, head);
      return;
    }
    await reviews.markStale(issueId, head);
    const rule = await this.reviewRuleOf(tx, pull);
    if (!rule?.dismissStaleApprovals) return;
    const approvals = await reviews.undismissed(issueId, { types: [REVIEW_TYPES.approve] });
    if (approvals.length === 0) return;
    await reviews.setDismissed(approvals.map((r) => r.id), true);
    const doerId = actorUser(actor)?.id ?? 0;
    for (const review of approvals) {
      await tx.port(CommentsPort).record({
        type: COMMENT_TYPES.dismiss_review,
        poster_id: doerId,
        issue_id: issueId,
        content: 'New commits pushed, approval review dismissed automatically according to repository settings',
        review_id: review.id,
      });
    }
  }
}

/** Forgejo's IsOfficialReviewerTeam: only under a rule, whitelisted or (without a whitelist) writing code. */
function isOfficialTeam(rule: ReviewRule | undefined, team: Team): boolean {
  if (!rule) return false;
  if (rule.enableApprovalsWhitelist) return rule.approvalsWhitelistTeamIds.includes(team.id);
  const units = teamUnits(team);
  const codeMode = team.authorize >= AccessMode.Admin || units.size === 0 ? team.authorize : (units.get('repo.code') ?? AccessMode.None);
  return codeMode >= AccessMode.Write;
}

async function retryOnUnique<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return run();
  }
}

function issueIdOf(pull: Pull | PullRequest): number {
  return 'issue' in pull ? pull.issue.id : pull.issue_id;
}
