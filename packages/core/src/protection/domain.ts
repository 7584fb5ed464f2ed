import { defineDomain } from '../domain.js';
import { ProtectionService } from './service.js';

/** Branch and tag protection rules go with their repository. */
export const protectionDomain = defineDomain({
  name: 'protection',
  provide(ctx) {
    // The git transfer asks the rules about a push before git runs (`GitTransferService.run`).
    ctx.provide('repos.pushPolicy', ctx.service(ProtectionService));
  },
  subscribe(ctx) {
    ctx.service(ProtectionService).subscribe();
  },
});
