import type { CoreContext, CoreTransaction } from '../context.js';
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import type { Comment } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { IssuesPort } from '../issues/index.js';
import { ReactionsPort } from '../reactions/index.js';
import { OrgsPort } from '../orgs/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { ReviewSummary } from '../pulls/index.js';
import type { Pull, PullRequest } from '../pulls/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { isOrganization, type User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import type { ApiView } from '../wire.js';
import './events.js';
import { maySee, parseId, signedIn, unprocessable } from './guards.js';
import { contentChanged, headMoved } from './head-moves.js';
import { codeCommentDrafts, excerpts, headOf, insertCodeComments, recountConversation, ReviewLineCommentsService } from './line-comments.js';
import { isOfficialReviewer, reviewRuleOf, type ReviewRule } from './officials.js';
import { ReviewRequestsService } from './requests.js';
import {
  CreatePullReviewOptionsSchema,
  DismissPullReviewOptionsSchema,
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
import { ReviewViewsService } from './views.js';

/** A commit a review says it looked at: hexadecimal, at most a SHA-256 id. */
const COMMIT_ID = /^[0-9a-fA-F]{4,64}$/;

// Declared by pulls, which reads it (`pulls.reviews`); exported from here as before.
export type { ReviewSummary };
// Declared with the official-reviewer checks that read it; exported from here as before.
export type { ReviewRule };

/**
 * Pull request reviews, as Forgejo's: readers who are signed in review (not approving or rejecting their own pull
 * request); a pending review is its author's alone until submitted; only a reviewer's latest approval or rejection
 * is official, and only when their approval counts (write on code, or the protection rule's whitelist); reviews of
 * an older head are stale. Review requests name users or teams and leave a timeline entry.
 *
 * The host's entry point (`host.reviews`): reviews themselves live here; line comments (line-comments.ts), review
 * requests (requests.ts), API views (views.ts) and head moves (head-moves.ts) are handed to their own files.
 */
export class ReviewsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ReviewsStore {
    return this.ctx.store(ReviewsStore);
  }

  private get views(): ReviewViewsService {
    return this.ctx.service(ReviewViewsService);
  }

  private get lineComments(): ReviewLineCommentsService {
    return this.ctx.service(ReviewLineCommentsService);
  }

  private get requests(): ReviewRequestsService {
    return this.ctx.service(ReviewRequestsService);
  }

  /** Reviews of an older head turn stale when the head moves; accounts and teams take their reviews along. */
  subscribe(): void {
    this.ctx.events.withinTransaction('pull.synchronized', async ({ payload }, tx) => {
      const changed = await contentChanged(this.ctx.git, repoKey(payload.owner, payload.repo), payload.before, payload.after);
      await headMoved(tx, payload.actor, payload.pull, payload.issue.id, payload.before, payload.after, changed);
    });
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => tx.store(ReviewsStore).deleteOfReviewer(payload.user.id));
    this.ctx.events.withinTransaction('team.deleted', async ({ payload }, tx) => tx.store(ReviewsStore).deleteOfTeam(payload.team.id));
  }

  /** The protection rule of the pull request's base branch (an exact name before a glob), as far as reviews care. */
  reviewRuleOf(scope: Pick<CoreTransaction, 'port'>, pull: PullRequest): Promise<ReviewRule | undefined> {
    return reviewRuleOf(scope, pull);
  }

  // ---- reads ----

  /** The review `id` of the pull request: NotFound when absent, elsewhere, or someone else's pending review. */
  async resolve(actor: Actor, _access: RepoAccess, pull: Pull, id: string | number): Promise<Review> {
    const number = parseId(id);
    const review = number ? await this.store.byId(number) : undefined;
    if (!review || review.issue_id !== pull.issue.id || !maySee(actor, review)) throw new NotFoundError('The target couldn\'t be found.');
    return review;
  }

  /** A page of the pull request's reviews and requests, oldest first (others' pending reviews left out). */
  list(actor: Actor, _access: RepoAccess, pull: Pull, paging: Paging = {}): Promise<Page<Review>> {
    const user = actorUser(actor);
    const viewerId = isSiteAdmin(actor) ? undefined : (user?.id ?? 0);
    return this.store.ofIssue(pull.issue.id, viewerId, clampPage(this.ctx.settings, paging));
  }

  // ---- API views (views.ts) ----

  /** The API view of reviews of one pull request, in a fixed number of queries. */
  toApi(access: RepoAccess, pull: Pull, reviews: readonly Review[], view: ApiView): Promise<ApiPullReview[]> {
    return this.views.toApi(access, pull, reviews, view);
  }

  toApiOne(access: RepoAccess, pull: Pull, review: Review, view: ApiView): Promise<ApiPullReview> {
    return this.views.toApiOne(access, pull, review, view);
  }

  /** The line comments of a review, oldest first, as the API shows them. */
  comments(actor: Actor, access: RepoAccess, pull: Pull, review: Review, view: ApiView): Promise<ApiPullReviewComment[]> {
    return this.views.comments(actor, access, pull, review, view);
  }

  commentsToApi(access: RepoAccess, pull: Pull, review: Pick<Review, 'id' | 'type'>, rows: readonly Comment[], view: ApiView): Promise<ApiPullReviewComment[]> {
    return this.views.commentsToApi(access, pull, review, rows, view);
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

  /** Requested reviewers and teams and the number of submitted reviews of each pull request (views.ts). */
  reviewSummaries(issueIds: readonly number[], scope: Pick<CoreTransaction, 'store' | 'port'> = this.ctx): Promise<Map<number, ReviewSummary>> {
    return this.views.reviewSummaries(issueIds, scope);
  }

  // ---- writes ----

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

  /**
   * Creates a review (`POST …/pulls/{index}/reviews`): its line comments go into the actor's pending review (one
   * is started when there is none), which is then submitted as `event` says, or stays pending without one.
   */
  async create(actor: Actor, access: RepoAccess, pull: Pull, input: CreatePullReviewOptions): Promise<Review> {
    const user = signedIn(actor, access);
    const opts = acceptInput(CreatePullReviewOptionsSchema, input);
    const drafts = codeCommentDrafts(opts.comments ?? []);
    const body = opts.body ?? '';
    const type = this.reviewTypeOf(user, pull, opts.event, body, drafts.length > 0);
    this.refuseClosed(pull, type);
    if (opts.commit_id && !COMMIT_ID.test(opts.commit_id)) throw new ValidationError('commit_id', 'invalid commit id');
    const head = await headOf(this.ctx.git, access, pull);
    const commitId = opts.commit_id || head;
    const patches = await excerpts(this.ctx.git, access, pull, head, drafts);
    // Two requests may start the actor's pending review at once; the one that loses the race runs again with it.
    return retryOnUnique(() => this.ctx.transaction(async (tx) => {
      const reviews = tx.store(ReviewsStore);
      let pending = await reviews.pendingOf(pull.issue.id, user.id);
      let codeComments: Comment[] = [];
      if (drafts.length > 0) {
        pending ??= await reviews.insert({ type: REVIEW_TYPES.pending, reviewer_id: user.id, issue_id: pull.issue.id, commit_id: commitId });
        codeComments = await insertCodeComments(tx, user, pull, pending, drafts, patches, commitId);
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
    const user = signedIn(actor, access);
    const opts = acceptInput(SubmitPullReviewOptionsSchema, input);
    if (review.type !== REVIEW_TYPES.pending || review.reviewer_id !== user.id) throw unprocessable('only a pending review can be submitted');
    const codeComments = await this.ctx.port(CommentsPort).reviewCodeComments([review.id]);
    const body = opts.body ?? '';
    const type = this.reviewTypeOf(user, pull, opts.event, body, codeComments.length > 0);
    if (type === REVIEW_TYPES.pending) throw unprocessable('review stay pending');
    this.refuseClosed(pull, type);
    const head = await headOf(this.ctx.git, access, pull);
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
      official = await isOfficialReviewer(tx, access, pull.pull, user);
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
    await recountConversation(tx, pull.issue.id);
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
      await recountConversation(tx, pull.issue.id);
    });
  }

  /**
   * Dismisses an approval or rejection, or takes the dismissal back (`POST …/reviews/{id}/dismissals|undismissals`):
   * repository administrators may, while the pull request is open. `priors` dismisses the reviewer's earlier
   * reviews too. A dismissal leaves a timeline entry with its message.
   */
  async dismiss(actor: Actor, access: RepoAccess, pull: Pull, review: Review, input: DismissPullReviewOptions, dismissed: boolean): Promise<Review> {
    const user = signedIn(actor, access);
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

  // ---- line comments (line-comments.ts) ----

  /** One line comment of the review: NotFound unless it belongs to it. */
  comment(actor: Actor, access: RepoAccess, pull: Pull, review: Review, id: string | number): Promise<Comment> {
    return this.lineComments.comment(actor, access, pull, review, id);
  }

  /** Adds a line comment to a review (`POST …/reviews/{id}/comments`). */
  addComment(actor: Actor, access: RepoAccess, pull: Pull, review: Review, input: CreatePullReviewComment): Promise<Comment> {
    return this.lineComments.addComment(actor, access, pull, review, input);
  }

  /** Replies to a review's line comment (`POST …/pulls/{index}/comments/{id}/replies`). */
  reply(actor: Actor, access: RepoAccess, pull: Pull, commentId: string | number, input: CreatePullReviewCommentReplyOptions): Promise<{ comment: Comment; review: Review }> {
    return this.lineComments.reply(actor, access, pull, commentId, input);
  }

  /** Deletes a review's line comment. */
  deleteComment(actor: Actor, access: RepoAccess, pull: Pull, review: Review, comment: Comment): Promise<void> {
    return this.lineComments.deleteComment(actor, access, pull, review, comment);
  }

  /** Marks a line comment's conversation resolved or not (`POST …/pulls/comments/{id}/resolve|unresolve`). */
  markConversation(actor: Actor, access: RepoAccess, commentId: string | number, resolved: boolean): Promise<void> {
    return this.lineComments.markConversation(actor, access, commentId, resolved);
  }

  // ---- review requests (requests.ts) ----

  /** Asks users and teams for a review, or withdraws the requests (`POST|DELETE …/requested_reviewers`). */
  request(actor: Actor, access: RepoAccess, pull: Pull, input: PullReviewRequestOptions, add: boolean): Promise<Review[]> {
    return this.requests.request(actor, access, pull, input, add);
  }
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
