import { defineDomain } from '../domain.js';
import { RedirectsService } from './service.js';

/** Old names of renamed and transferred repositories and accounts follow every rename, transfer and reuse. */
export const redirectsDomain = defineDomain({
  name: 'redirects',
  subscribe(ctx) {
    ctx.service(RedirectsService).subscribe();
  },
});
