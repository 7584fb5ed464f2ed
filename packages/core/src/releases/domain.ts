import { defineDomain } from '../domain.js';
import { ReleasesService } from './service.js';

/** Releases go with their repository; a push deleting a release's tag makes it a draft. */
export const releasesDomain = defineDomain({
  name: 'releases',
  provide(ctx) {
    // The tags API refuses to create or delete a tag a release holds.
    ctx.provide('refs.tagReleases', ctx.service(ReleasesService));
  },
  subscribe(ctx) {
    ctx.service(ReleasesService).subscribe();
  },
});
