import { defineDomain } from '../domain.js';
import { TopicsService } from './service.js';

/** Topic counts follow deletions of repositories. */
export const topicsDomain = defineDomain({
  name: 'topics',
  provide(ctx) {
    // Generating a repository from a template copies its topics (`ReposService.generate`).
    ctx.provide('repos.topics', ctx.service(TopicsService));
  },
  subscribe(ctx) {
    ctx.service(TopicsService).subscribe();
  },
});
