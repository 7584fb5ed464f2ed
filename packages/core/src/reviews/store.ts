import { sql, type Updateable } from 'kysely';
import { nowUnix } from '../storage/index.js';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { REVIEW_TYPES, type ApprovalFilter, type NewReview, type Review, type ReviewsTables, type ReviewTable } from './tables.js';

export type { ApprovalFilter };

/** Rows per statement of a bulk insert: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** The kinds that say where a reviewer stands (Forgejo's GetReviewByIssueIDAndUserID). */
const STANDING_TYPES = [REVIEW_TYPES.approve, REVIEW_TYPES.reject, REVIEW_TYPES.request];

/** The `review` table. */
export class ReviewsStore extends Store<ReviewsTables> {
  private readonly byIdQuery = this.precompiled<Review, 'id'>('reviewById', (db, param) => db.selectFrom('review').selectAll().where('id', '=', param('id')));

  insert(row: Omit<NewReview, 'created_unix' | 'updated_unix'>): Promise<Review> {
    const now = nowUnix();
    return this.db.insertInto('review').values({ ...row, created_unix: now, updated_unix: now }).returningAll().executeTakeFirstOrThrow();
  }

  /** Reviews written by a migration, with the times the remote gave them; their ids in the order of `rows`. */
  async insertMany(rows: readonly NewReview[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const inserted = await this.db.insertInto('review').values(rows.slice(i, i + CHUNK)).returning('id').execute();
      // Ids grow in the order rows are inserted.
      ids.push(...inserted.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    return ids;
  }

  async byId(id: number): Promise<Review | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  update(id: number, changes: Updateable<ReviewTable>): Promise<Review> {
    return this.db.updateTable('review').set({ updated_unix: nowUnix(), ...changes }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Changes a review that is still pending; undefined when it no longer is (submitted meanwhile). */
  updatePending(id: number, changes: Updateable<ReviewTable>): Promise<Review | undefined> {
    return this.db
      .updateTable('review')
      .set({ updated_unix: nowUnix(), ...changes })
      .where('id', '=', id)
      .where('type', '=', sql.lit(REVIEW_TYPES.pending))
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('review').where('id', '=', id).execute();
  }

  /**
   * A page of a pull request's reviews and requests, oldest first; pending reviews only the viewer's own
   * (`viewerId`; undefined: everyone's, as site administrators see them).
   */
  ofIssue(issueId: number, viewerId: number | undefined, page: PageRequest): Promise<Page<Review>> {
    const base = this.db
      .selectFrom('review')
      .where('issue_id', '=', issueId)
      .$if(viewerId !== undefined, (q) => q.where((eb) => eb.or([eb('type', '!=', sql.lit(REVIEW_TYPES.pending)), eb('reviewer_id', '=', viewerId!)])));
    return Store.page(
      base.selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** The reviewer's pending review of the pull request (Forgejo's GetCurrentReview). */
  pendingOf(issueId: number, reviewerId: number): Promise<Review | undefined> {
    return this.db
      .selectFrom('review')
      .selectAll()
      .where('issue_id', '=', issueId)
      .where('reviewer_id', '=', reviewerId)
      .where('type', '=', sql.lit(REVIEW_TYPES.pending))
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Where a user stands on the pull request: their latest approval, rejection or request. */
  standingOf(issueId: number, reviewerId: number): Promise<Review | undefined> {
    return this.db
      .selectFrom('review')
      .selectAll()
      .where('issue_id', '=', issueId)
      .where('reviewer_id', '=', reviewerId)
      .where('original_author_id', '=', 0)
      .where('type', 'in', STANDING_TYPES.map((type) => sql.lit(type)))
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** The request for a team's review of the pull request. */
  teamRequestOf(issueId: number, teamId: number): Promise<Review | undefined> {
    return this.db
      .selectFrom('review')
      .selectAll()
      .where('issue_id', '=', issueId)
      .where('reviewer_team_id', '=', teamId)
      .where('type', '=', sql.lit(REVIEW_TYPES.request))
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Requests for teams' reviews of the pull request. */
  teamRequests(issueId: number): Promise<Review[]> {
    return this.db.selectFrom('review').selectAll().where('issue_id', '=', issueId).where('reviewer_team_id', '>', 0).where('type', '=', sql.lit(REVIEW_TYPES.request)).execute();
  }

  async deleteByIds(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('review').where('id', 'in', [...ids]).execute();
  }

  /** Only a reviewer's latest approval or rejection is official: clears the flag on all of theirs. */
  async clearOfficial(issueId: number, who: { reviewerId: number } | { teamId: number }): Promise<void> {
    await this.db
      .updateTable('review')
      .set({ official: 0 })
      .where('issue_id', '=', issueId)
      .$if('reviewerId' in who, (q) => q.where('reviewer_id', '=', (who as { reviewerId: number }).reviewerId))
      .$if('teamId' in who, (q) => q.where('reviewer_team_id', '=', (who as { teamId: number }).teamId))
      .execute();
  }

  /** Makes the reviewer's latest approval or rejection official again (a request or review of theirs went away). */
  async restoreOfficial(issueId: number, reviewerId: number): Promise<void> {
    const latest = await this.db
      .selectFrom('review')
      .select('id')
      .where('issue_id', '=', issueId)
      .where('reviewer_id', '=', reviewerId)
      .where('type', 'in', [sql.lit(REVIEW_TYPES.approve), sql.lit(REVIEW_TYPES.reject)])
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (latest) await this.db.updateTable('review').set({ official: 1 }).where('id', '=', latest.id).execute();
  }

  /** Reviews of the pull request that are not dismissed, of one reviewer or of some kinds. */
  undismissed(issueId: number, filter: { reviewerId?: number; types?: readonly number[] }): Promise<Review[]> {
    return this.db
      .selectFrom('review')
      .selectAll()
      .where('issue_id', '=', issueId)
      .where('dismissed', '=', 0)
      .$if(filter.reviewerId !== undefined, (q) => q.where('reviewer_id', '=', filter.reviewerId!))
      .$if(filter.types !== undefined, (q) => q.where('type', 'in', filter.types!.map((type) => sql.lit(type))))
      .orderBy('id')
      .execute();
  }

  async setDismissed(ids: readonly number[], dismissed: boolean): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('review').set({ dismissed: dismissed ? 1 : 0 }).where('id', 'in', [...ids]).execute();
  }

  /** After the head moved: reviews of another commit are stale, those of `headCommitId` are not. */
  async markStale(issueId: number, headCommitId: string): Promise<void> {
    await this.db.updateTable('review').set({ stale: 1 }).where('issue_id', '=', issueId).where('commit_id', '!=', headCommitId).execute();
    await this.db.updateTable('review').set({ stale: 0 }).where('issue_id', '=', issueId).where('commit_id', '=', headCommitId).execute();
  }

  /** The head moved without changing content: reviews of `from` are of `to` now, and fresh. */
  async moveToCommit(issueId: number, from: string, to: string): Promise<void> {
    await this.db.updateTable('review').set({ commit_id: to, stale: 0 }).where('issue_id', '=', issueId).where('commit_id', '=', from).execute();
  }

  /** How many approvals the pull request has that pass the filter and are not dismissed. */
  async countApprovals(issueId: number, filter: ApprovalFilter): Promise<number> {
    if (filter.reviewerIds && filter.reviewerIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('review')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('issue_id', '=', issueId)
      .where('type', '=', sql.lit(REVIEW_TYPES.approve))
      .where('dismissed', '=', 0)
      .$if(filter.official === true, (q) => q.where('official', '=', 1))
      .$if(filter.ignoreStale === true, (q) => q.where('stale', '=', 0))
      .$if(filter.reviewerIds !== undefined, (q) => q.where('reviewer_id', 'in', [...filter.reviewerIds!]))
      .executeTakeFirst();
    return Store.count(row);
  }

  /** Is there an official, not dismissed review of this kind (a rejection, a request)? */
  async hasOfficial(issueId: number, type: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('review')
      .select('id')
      .where('issue_id', '=', issueId)
      .where('type', '=', sql.lit(type))
      .where('official', '=', 1)
      .where('dismissed', '=', 0)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every approval, rejection and request of these pull requests (what their requested reviewers derive from). */
  standingsOf(issueIds: readonly number[]): Promise<Review[]> {
    return this.standingsOfQuery(issueIds);
  }

  private readonly standingsOfQuery = this.precompiledIn('standingsOf', (db, issueIds) =>
    db
      .selectFrom('review')
      .selectAll()
      .where('issue_id', 'in', issueIds)
      .where('type', 'in', STANDING_TYPES.map((type) => sql.lit(type)))
      .where('original_author_id', '=', sql.lit(0))
      .orderBy('id'),
  );

  /** A user's reviews and requests go with the account. */
  async deleteOfReviewer(reviewerId: number): Promise<void> {
    await this.db.deleteFrom('review').where('reviewer_id', '=', reviewerId).execute();
  }

  /** Requests for a team's review go with the team. */
  async deleteOfTeam(teamId: number): Promise<void> {
    await this.db.deleteFrom('review').where('reviewer_team_id', '=', teamId).execute();
  }
}
