/**
 * Line comments of reviews: drafting them from a request (path, line, excerpt of the file's diff around the line,
 * the commit they point at), recording them, and the calls on one comment (`…/reviews/{id}/comments`, replies,
 * deleting, resolving its conversation).
 */
import type { CoreContext, CoreTransaction } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import type { Comment } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { IssuesPort } from '../issues/index.js';
import { ReactionsPort } from '../reactions/index.js';
import { PullsPort } from '../pulls/index.js';
import type { Pull } from '../pulls/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import type { GitBackend } from '../git/index.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { maySee, parseId, signedIn, unprocessable } from './guards.js';
import { isOfficialReviewer } from './officials.js';
import { cutDiffAroundLine } from './patch.js';
import {
  CreatePullReviewCommentReplyOptionsSchema,
  CreatePullReviewCommentSchema,
  type CreatePullReviewComment,
  type CreatePullReviewCommentReplyOptions,
} from './schemas.js';
import { ReviewsStore } from './store.js';
import { REVIEW_TYPES, type Review } from './tables.js';

/** Lines of the file's diff a line comment keeps above it, its own included (Forgejo's UI.CodeCommentLines). */
const CODE_COMMENT_LINES = 4;
/** How much of a file's diff is read to cut a comment's excerpt from. */
const MAX_FILE_DIFF_BYTES = 4 * 1024 * 1024;
/** Most line comments one review request may carry. */
const MAX_COMMENTS_PER_REVIEW = 250;

/** A line comment to record: where it points (`line` negative on the base's side), what it says. */
export interface CodeCommentDraft {
  path: string;
  line: number;
  body: string;
}

/** The stored line of a comment: the new side's number, or the old side's negated. */
function lineOf(input: Pick<CreatePullReviewComment, 'new_position' | 'old_position'>): number {
  const oldLine = input.old_position ?? 0;
  const newLine = input.new_position ?? 0;
  if (!Number.isSafeInteger(oldLine) || !Number.isSafeInteger(newLine)) throw new ValidationError('new_position', 'out of range');
  return oldLine > 0 ? -oldLine : Math.max(newLine, 0);
}

/** The pull request's head commit: the ref the base repository keeps for it, else what the last check saw. */
export async function headOf(git: GitBackend, access: RepoAccess, pull: Pull): Promise<string> {
  const ref = `refs/pull/${pull.pull.index}/head`;
  const refs = await git.readRefs(repoKey(access.owner, access.repo), [ref]);
  return refs.get(ref) ?? pull.pull.head_commit_id;
}

/** The diff excerpt of each drafted comment (one git process for all their paths); '' for file-level comments. */
export async function excerpts(git: GitBackend, access: RepoAccess, pull: Pull, head: string, drafts: readonly CodeCommentDraft[]): Promise<string[]> {
  const base = pull.pull.merge_base;
  const withLines = drafts.filter((d) => d.line !== 0);
  if (withLines.length === 0 || !base || !head) return drafts.map(() => '');
  let diffs = new Map<string, string>();
  try {
    diffs = await git.fileDiffs(repoKey(access.owner, access.repo), base, head, [...new Set(withLines.map((d) => d.path))], MAX_FILE_DIFF_BYTES);
  } catch {
    // A head or base gone from the repository: the comments keep no excerpt.
  }
  return drafts.map((d) => (d.line === 0 ? '' : cutDiffAroundLine(diffs.get(d.path) ?? '', Math.abs(d.line), d.line < 0, CODE_COMMENT_LINES)));
}

/** Line comments of a review request, checked. */
export function codeCommentDrafts(comments: readonly CreatePullReviewComment[]): CodeCommentDraft[] {
  if (comments.length > MAX_COMMENTS_PER_REVIEW) throw new ValidationError('comments', `at most ${MAX_COMMENTS_PER_REVIEW} comments`);
  return comments.map((c) => codeCommentDraft(c));
}

/** One line comment of a request, checked: a path, a line, a body. */
export function codeCommentDraft(c: CreatePullReviewComment): CodeCommentDraft {
  const path = (c.path ?? '').replace(/^\/+/, '');
  if (path === '' || path.includes('\0') || path.length > 4096) throw new ValidationError('path', 'Required');
  const body = c.body ?? '';
  if (body.trim() === '') throw new ValidationError('body', 'Required');
  return { path, line: lineOf(c), body };
}

/** Records line comments in a review (their excerpts and commits computed beforehand). */
export async function insertCodeComments(tx: CoreTransaction, user: User, pull: Pull, review: Review, drafts: readonly CodeCommentDraft[], patches: readonly string[], commitId: string): Promise<Comment[]> {
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

/** `issue.num_comments` counts the conversation: plain comments and submitted reviews (Forgejo's recount). */
export async function recountConversation(tx: CoreTransaction, issueId: number): Promise<void> {
  await tx.port(IssuesPort).recountConversation(issueId, () => tx.port(CommentsPort).countConversation(issueId));
}

/** Calls on one review's line comments; ReviewsService hands them here. */
export class ReviewLineCommentsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ReviewsStore {
    return this.ctx.store(ReviewsStore);
  }

  /** One line comment of the review: NotFound unless it belongs to it. */
  async comment(_actor: Actor, _access: RepoAccess, _pull: Pull, review: Review, id: string | number): Promise<Comment> {
    const number = parseId(id);
    const comment = number ? await this.ctx.port(CommentsPort).byId(number) : undefined;
    if (!comment || comment.review_id !== review.id || comment.type !== COMMENT_TYPES.code) throw new NotFoundError('The target couldn\'t be found.');
    return comment;
  }

  /**
   * Adds a line comment to a review (`POST …/reviews/{id}/comments`): to one's own pending review, or, on a
   * submitted one, as a reply in its conversation.
   */
  async addComment(actor: Actor, access: RepoAccess, pull: Pull, review: Review, input: CreatePullReviewComment): Promise<Comment> {
    const user = signedIn(actor, access);
    const opts = acceptInput(CreatePullReviewCommentSchema, input);
    if (review.type === REVIEW_TYPES.request) throw unprocessable('a review request takes no comments');
    if (review.type === REVIEW_TYPES.pending && review.reviewer_id !== user.id) throw new NotFoundError('The target couldn\'t be found.');
    this.refuseLocked(access, pull);
    const draft = codeCommentDraft(opts);
    return this.commentInto(actor, user, access, pull, review, draft);
  }

  /** Replies to a review's line comment (`POST …/pulls/{index}/comments/{id}/replies`): same path, line and review. */
  async reply(actor: Actor, access: RepoAccess, pull: Pull, commentId: string | number, input: CreatePullReviewCommentReplyOptions): Promise<{ comment: Comment; review: Review }> {
    const user = signedIn(actor, access);
    const opts = acceptInput(CreatePullReviewCommentReplyOptionsSchema, input);
    const number = parseId(commentId);
    const original = number ? await this.ctx.port(CommentsPort).byId(number) : undefined;
    const review = original && original.review_id > 0 ? await this.store.byId(original.review_id) : undefined;
    if (!original || original.issue_id !== pull.issue.id || original.type !== COMMENT_TYPES.code || !review || !maySee(actor, review)) {
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
    const head = await headOf(this.ctx.git, access, pull);
    const commitId = review.commit_id || head;
    const [patch = ''] = await excerpts(this.ctx.git, access, pull, review.commit_id || head, [draft]);
    return this.ctx.transaction(async (tx) => {
      const [comment] = await insertCodeComments(tx, user, pull, review, [draft], [patch], commitId);
      if (review.type !== REVIEW_TYPES.pending) {
        await recountConversation(tx, pull.issue.id);
        tx.emit('pull.review_comment_created', { actor, repo: access.repo, owner: access.owner, issue: pull.issue, pull: pull.pull, review, comment: comment! });
      }
      return comment!;
    });
  }

  /** Deletes a review's line comment: its poster or a writer on pull requests may. */
  async deleteComment(actor: Actor, access: RepoAccess, pull: Pull, review: Review, comment: Comment): Promise<void> {
    const user = signedIn(actor, access);
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
    const user = signedIn(actor, access);
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
      (review !== undefined && !maySee(actor, review))
    ) {
      throw new NotFoundError('The target couldn\'t be found.');
    }
    const allowed =
      user.id === issue.poster_id || unitMode(access, 'repo.pulls') >= AccessMode.Write || (await isOfficialReviewer(this.ctx, access, pullRow, user));
    if (!allowed) throw new ForbiddenError('user may not resolve this conversation');
    if (resolved === (comment.resolve_doer_id !== 0)) return;
    await this.ctx.port(CommentsPort).setResolver(comment.id, resolved ? user.id : 0);
  }
}
