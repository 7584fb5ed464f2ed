import { defineDomain } from '../domain.js';
import { ReviewsService } from './service.js';
import { pullReviewReader } from './pull-reader.js';

/** Reviews turn stale when a pull request's head moves; they go with their reviewer or team. */
export const reviewsDomain = defineDomain({
  name: 'reviews',
  provide(ctx) {
    ctx.provide('pulls.reviews', pullReviewReader(ctx));
  },
  subscribe(ctx) {
    ctx.service(ReviewsService).subscribe();
  },
});
