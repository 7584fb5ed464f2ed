import { defineDomain } from '../domain.js';
import { TopicsService } from './service.js';

/** Topic counts follow deletions of repositories. */
export const topicsDomain = defineDomain({
  name: 'topics',
  subscribe(ctx) {
    ctx.service(TopicsService).subscribe();
  },
});
