import { defineDomain } from '../domain.js';
import { OrgsService } from './service.js';

/** Membership rows go with accounts and repositories; a member's new repository goes to their teams that may create. */
export const orgsDomain = defineDomain({
  name: 'orgs',
  subscribe(ctx) {
    ctx.service(OrgsService).subscribe();
  },
});
