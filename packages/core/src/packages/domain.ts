import { defineDomain } from '../domain.js';
import { PackagesService } from './service.js';

/**
 * Packages count toward quotas, go (with the blobs left without a file) with their owner, and are unlinked from a
 * deleted repository.
 */
export const packagesDomain = defineDomain({
  name: 'packages',
  subscribe(ctx) {
    ctx.service(PackagesService).subscribe();
  },
});
