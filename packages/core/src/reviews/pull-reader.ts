import type { CoreContext } from '../context.js';
import type { PullReviewReader } from '../pulls/index.js';
import { ReviewsPort } from './port.js';
import { REVIEW_TYPES } from './tables.js';
import { ReviewViewsService } from './views.js';

/** Reviews as pull requests read them (`pulls.reviews`): the merge gate's counts and the views' summaries. */
export function pullReviewReader(ctx: CoreContext): PullReviewReader {
  return {
    countApprovals: (issueId, filter) => ctx.port(ReviewsPort).countApprovals(issueId, filter),
    async blockingReviews(issueId) {
      const reviews = ctx.port(ReviewsPort);
      const [rejected, requested] = await Promise.all([
        reviews.hasOfficial(issueId, REVIEW_TYPES.reject),
        reviews.hasOfficial(issueId, REVIEW_TYPES.request),
      ]);
      return { rejected, requested };
    },
    officialApprovals: async (issueId) => (await ctx.port(ReviewsPort).undismissedApprovals(issueId)).filter((r) => r.official === 1),
    summaries: (issueIds, scope) => ctx.service(ReviewViewsService).reviewSummaries(issueIds, scope),
  };
}
