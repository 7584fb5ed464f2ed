import { defineDomain } from '../domain.js';
import { DebianPackagesService } from './debian.js';
import { PackagesService } from './service.js';
import { sweepPackageUploadSpool } from './spool.js';

/**
 * Packages count toward quotas, go (with the blobs left without a file) with their owner, and are unlinked from a
 * deleted repository. Uploads a crash cut off while they waited in the spool are removed at start; those and the
 * container upload sessions a client left are removed by `cleanup_packages` too, listed with the maintenance tasks
 * in Forgejo's order (cron/domain.ts). A Debian version deleted through the API v1 has its owner's apt index rebuilt.
 */
export const packagesDomain = defineDomain({
  name: 'packages',
  subscribe(ctx) {
    ctx.service(PackagesService).subscribe();
    ctx.service(DebianPackagesService).subscribe();
  },
  repairs: [
    {
      async run(ctx) {
        await sweepPackageUploadSpool(ctx.settings);
      },
    },
  ],
});
