import { defineDomain } from '../domain.js';
import { ReleasesService } from './service.js';

/** Releases go with their repository; a push deleting a release's tag makes it a draft. */
export const releasesDomain = defineDomain({
  name: 'releases',
  subscribe(ctx) {
    ctx.service(ReleasesService).subscribe();
  },
});
