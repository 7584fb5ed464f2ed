import { defineDomain } from '../domain.js';
import { AccessService } from './service.js';

/** Collaborations go with their account and repository; a transfer drops the new owner's own. */
export const accessDomain = defineDomain({
  name: 'access',
  subscribe(ctx) {
    ctx.service(AccessService).subscribe();
  },
});
