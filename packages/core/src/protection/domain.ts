import { defineDomain } from '../domain.js';
import { ProtectionService } from './service.js';

/** Branch and tag protection rules go with their repository. */
export const protectionDomain = defineDomain({
  name: 'protection',
  subscribe(ctx) {
    ctx.service(ProtectionService).subscribe();
  },
});
