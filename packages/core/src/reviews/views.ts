/**
 * Reviews as the API shows them: reviews and their line comments with the accounts, teams and counts they name
 * (each batch in a fixed number of queries; convert.ts shapes one), and the review summaries of PullRequest views.
 */
import type { CoreContext, CoreTransaction } from '../context.js';
import type { Actor } from '../users/index.js';
import { issueWebUrl } from '../comments/index.js';
import { CommentsPort } from '../timeline/index.js';
import type { Comment } from '../timeline/index.js';
import { OrgsPort } from '../orgs/index.js';
import type { ReviewSummary } from '../pulls/index.js';
import type { Pull } from '../pulls/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoWebPath } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { GHOST_USER } from '../users/index.js';
import type { ApiView } from '../wire.js';
import { toApiPullReview, toApiPullReviewComment } from './convert.js';
import type { ApiPullReview, ApiPullReviewComment } from './schemas.js';
import { ReviewsStore } from './store.js';
import { REVIEW_TYPES, type Review } from './tables.js';

export class ReviewViewsService {
  constructor(private readonly ctx: CoreContext) {}

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

  /** Line comments of one review as the API shows them, with their posters and resolvers. */
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
}
