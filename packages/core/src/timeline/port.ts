import type { Expression } from 'kysely';
import type { Page, PageRequest } from '../paging.js';
import type { StoreScope } from '../storage/index.js';
import { CommentImportStore } from './import-store.js';
import { ReviewCommentsStore } from './review-comments-store.js';
import { CommentsStore, type CommentDraft, type CommentFilter } from './store.js';
import { COMMENT_TYPES } from './types.js';

export type { CommentFilter };
import type { Comment, NewComment } from './tables.js';

/**
 * What other domains read and write of comments and timeline events (the `comment` table); the timeline's stores
 * stay private. The comments API, issues, labels, reviews and pulls all write timeline rows through it.
 */
export class CommentsPort {
  constructor(private readonly scope: StoreScope) {}

  /** The instance's plain comments (Forgejo's `CountComments` without options: type 0, no timeline events). */
  countPlain(): Promise<number> {
    return this.comments.countOfType(COMMENT_TYPES.comment);
  }

  private get comments(): CommentsStore {
    return this.scope.store(CommentsStore);
  }

  private get reviewComments(): ReviewCommentsStore {
    return this.scope.store(ReviewCommentsStore);
  }

  /** Records a comment or timeline event (a close, a label change, a review…); its times default to now. */
  record(row: CommentDraft): Promise<Comment> {
    return this.comments.insert(row);
  }

  /** One comment by id, whatever its kind (the caller checks it belongs where it was asked for). */
  byId(id: number): Promise<Comment | undefined> {
    return this.comments.byId(id);
  }

  /** Comments by id, in one query. */
  byIds(ids: readonly number[]): Promise<Comment[]> {
    return this.comments.byIds(ids);
  }

  /** An issue's comments of the filter, oldest first; all, or one page. */
  ofIssue(issueId: number, filter: CommentFilter, page?: PageRequest): Promise<Page<Comment>> {
    return this.comments.ofIssue(issueId, filter, page);
  }

  /** A page of a repository's comments of the filter (on issues, pull requests or both: `isPull`), oldest first. */
  ofRepo(repoId: number, filter: CommentFilter & { isPull?: boolean }, page: PageRequest): Promise<Page<Comment>> {
    return this.comments.ofRepo(repoId, filter, page);
  }

  /** Changes a comment's body if nobody changed it since `version` was read; undefined when someone did. */
  updateContent(id: number, version: number, content: string, updatedUnix: number): Promise<Comment | undefined> {
    return this.comments.updateContent(id, version, content, updatedUnix);
  }

  /** The references still in effect that an issue's body (`commentId` 0) or one comment made on other issues. */
  activeReferencesFrom(issueId: number, commentId: number): Promise<Comment[]> {
    return this.comments.activeReferencesFrom(issueId, commentId);
  }

  /** Marks references as no longer in effect (their origin changed or went away); they stay in the timelines. */
  neuter(ids: readonly number[], updatedUnix?: number): Promise<void> {
    return this.comments.neuter(ids, updatedUnix);
  }

  /** Removes one comment (a review's line comment); its reactions are the caller's to remove. */
  delete(id: number): Promise<void> {
    return this.comments.delete(id);
  }

  /** Marks a comment changed now (Forgejo re-saves a comment when a file is attached to it). */
  touch(id: number): Promise<void> {
    return this.comments.touch(id);
  }

  /** How many comments count as an issue's conversation (plain comments and reviews): its `num_comments`. */
  countConversation(issueId: number): Promise<number> {
    return this.comments.countConversation(issueId);
  }

  /** Of these issues, those whose timeline already references commit `sha` (a commit pushed twice is recorded once). */
  issuesReferencingCommit(issueIds: readonly number[], sha: string): Promise<Set<number>> {
    return this.comments.issuesReferencingCommit(issueIds, sha);
  }

  /** The references issue `issueId` made that close or reopen other issues, oldest first (what a merge acts on). */
  closingReferencesFrom(issueId: number): Promise<Comment[]> {
    return this.comments.closingReferencesFrom(issueId);
  }

  /** Drops the `label` events naming a label being deleted, as Forgejo does. */
  deleteLabelEvents(labelId: number): Promise<void> {
    return this.comments.deleteLabelEvents(labelId);
  }

  /** Drops the `label` events naming these labels on these issues (labels a transferred repository loses). */
  deleteLabelEventsOn(labelIds: readonly number[], issueIds: Expression<number>): Promise<void> {
    return this.comments.deleteLabelEventsOn(labelIds, issueIds);
  }

  // ---- reviews: their line comments, timeline entries and dismissals ----

  /** The line comments of these reviews, oldest first, in one query. */
  reviewCodeComments(reviewIds: readonly number[]): Promise<Comment[]> {
    return this.reviewComments.codeCommentsOf(reviewIds);
  }

  /** How many line comments each of these reviews has, in one query. */
  countReviewCodeComments(reviewIds: readonly number[]): Promise<Map<number, number>> {
    return this.reviewComments.countCodeComments(reviewIds);
  }

  /** The timeline entry of each submitted review, in one query: what a review's `html_url` points at. */
  reviewTimelineEntries(reviewIds: readonly number[]): Promise<Map<number, number>> {
    return this.reviewComments.timelineEntriesOf(reviewIds);
  }

  /** The first line comment of a review at a path and line (a reply reuses its commit and excerpt). */
  firstReviewCommentAt(reviewId: number, treePath: string, line: number): Promise<Comment | undefined> {
    return this.reviewComments.firstAt(reviewId, treePath, line);
  }

  /** Removes a review's line comments, timeline entry and dismissals; their ids, for their reactions to go too. */
  deleteOfReview(issueId: number, reviewId: number): Promise<number[]> {
    return this.reviewComments.deleteOfReview(issueId, reviewId);
  }

  /** Marks a line comment's conversation resolved by `doerId` (0: unresolved). */
  setResolver(commentId: number, doerId: number): Promise<void> {
    return this.reviewComments.setResolver(commentId, doerId);
  }

  /** How many reviews were submitted on each of these pull requests, in one query (Forgejo's `review_comments`). */
  countReviews(issueIds: readonly number[]): Promise<Map<number, number>> {
    return this.reviewComments.countReviews(issueIds);
  }

  // ---- a migration's bulk writes ----

  /** Inserts imported comments many at a time; their ids in the order of `rows`. */
  insertImported(rows: readonly NewComment[]): Promise<number[]> {
    return this.scope.store(CommentImportStore).insertMany(rows);
  }
}
