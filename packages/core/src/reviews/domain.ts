import { defineDomain } from '../domain.js';
import { ReviewsService } from './service.js';

/** Reviews turn stale when a pull request's head moves; they go with their reviewer or team. */
export const reviewsDomain = defineDomain({
  name: 'reviews',
  subscribe(ctx) {
    ctx.service(ReviewsService).subscribe();
  },
});
