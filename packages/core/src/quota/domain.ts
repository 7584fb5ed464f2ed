import { defineDomain } from '../domain.js';
import { QuotaService } from './service.js';

/** Quota group memberships go with their accounts. */
export const quotaDomain = defineDomain({
  name: 'quota',
  subscribe(ctx) {
    ctx.service(QuotaService).subscribe();
  },
});
