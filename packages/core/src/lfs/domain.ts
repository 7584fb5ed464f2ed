import { defineDomain } from '../domain.js';
import { LfsService } from './service.js';

/** Git LFS: its quota source and what a fork inherits. */
export const lfsDomain = defineDomain({
  name: 'lfs',
  subscribe(ctx) {
    ctx.service(LfsService).subscribe();
  },
});
