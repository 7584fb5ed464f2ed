import { defineDomain } from '../domain.js';
import { SocialService } from './service.js';

/** Follows, stars and watches go with their accounts and repositories, the counters they kept corrected. */
export const socialDomain = defineDomain({
  name: 'social',
  subscribe(ctx) {
    ctx.service(SocialService).subscribe();
  },
});
