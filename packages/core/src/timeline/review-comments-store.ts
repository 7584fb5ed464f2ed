import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { Comment, CommentsTables } from './tables.js';
import { COMMENT_TYPES } from './types.js';

/**
 * The reads and writes of `comment` about reviews: a review's line comments (code type, `review_id`), the
 * timeline entry each submitted review has (review type) and dismissals. The reviews domain reaches them
 * through CommentsPort.
 */
export class ReviewCommentsStore extends Store<CommentsTables> {
  /** The line comments of these reviews, oldest first. */
  codeCommentsOf(reviewIds: readonly number[]): Promise<Comment[]> {
    if (reviewIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('comment')
      .selectAll()
      .where('review_id', 'in', [...new Set(reviewIds)])
      .where('type', '=', COMMENT_TYPES.code)
      .orderBy('created_unix')
      .orderBy('id')
      .execute();
  }

  /** How many line comments each of these reviews has. */
  async countCodeComments(reviewIds: readonly number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    if (reviewIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('comment')
      .select(['review_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('review_id', 'in', [...new Set(reviewIds)])
      .where('type', '=', COMMENT_TYPES.code)
      .groupBy('review_id')
      .execute();
    for (const row of rows) counts.set(Number(row.review_id), Number(row.n));
    return counts;
  }

  /** The timeline entry of each submitted review (the first, by id): what a review's `html_url` points at. */
  async timelineEntriesOf(reviewIds: readonly number[]): Promise<Map<number, number>> {
    const entries = new Map<number, number>();
    if (reviewIds.length === 0) return entries;
    const rows = await this.db
      .selectFrom('comment')
      .select(['review_id', (eb) => eb.fn.min<number>('id').as('id')])
      .where('review_id', 'in', [...new Set(reviewIds)])
      .where('type', '=', COMMENT_TYPES.review)
      .groupBy('review_id')
      .execute();
    for (const row of rows) entries.set(Number(row.review_id), Number(row.id));
    return entries;
  }

  /** The first line comment of a review at a path and line (a reply reuses its commit and hunk). */
  firstAt(reviewId: number, treePath: string, line: number): Promise<Comment | undefined> {
    return this.db
      .selectFrom('comment')
      .selectAll()
      .where('review_id', '=', reviewId)
      .where('type', '=', COMMENT_TYPES.code)
      .where('tree_path', '=', treePath)
      .where('line', '=', line)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /** Removes a review's line comments, timeline entry and dismissals. */
  async deleteOfReview(issueId: number, reviewId: number): Promise<number[]> {
    const rows = await this.db
      .deleteFrom('comment')
      .where('issue_id', '=', issueId)
      .where('review_id', '=', reviewId)
      .where('type', 'in', [COMMENT_TYPES.code, COMMENT_TYPES.review, COMMENT_TYPES.dismiss_review])
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Marks a line comment's conversation resolved by `doerId` (0: unresolved). */
  async setResolver(commentId: number, doerId: number): Promise<void> {
    await this.db.updateTable('comment').set({ resolve_doer_id: doerId }).where('id', '=', commentId).execute();
  }

  private readonly countReviewsQuery = this.precompiledIn('countReviews', (db, issueIds) =>
    db
      .selectFrom('comment')
      .select(['issue_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('issue_id', 'in', issueIds)
      .where('type', '=', sql.lit(COMMENT_TYPES.review))
      .groupBy('issue_id'),
  );

  /** How many reviews were submitted on each of these pull requests (Forgejo's `review_comments`). */
  async countReviews(issueIds: readonly number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    if (issueIds.length === 0) return counts;
    const rows = await this.countReviewsQuery(issueIds);
    for (const row of rows) counts.set(Number(row.issue_id), Number(row.n));
    return counts;
  }
}
