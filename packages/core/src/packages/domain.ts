import { defineDomain } from '../domain.js';
import { parseGoDuration } from '../go-duration.js';
import { ContainerPackagesService } from './container.js';
import { PackagesService } from './service.js';
import { sweepPackageUploadSpool } from './spool.js';

/**
 * Packages count toward quotas, go (with the blobs left without a file) with their owner, and are unlinked from a
 * deleted repository. Uploads a crash cut off while they waited in the spool are removed at start; those and the
 * container upload sessions a client left are removed by `cleanup_packages` too.
 */
export const packagesDomain = defineDomain({
  name: 'packages',
  subscribe(ctx) {
    ctx.service(PackagesService).subscribe();
  },
  cron: [
    {
      name: 'cleanup_packages',
      timeoutSeconds: 3600,
      async run(ctx) {
        const olderThan = parseGoDuration(ctx.settings['cron.cleanup_packages'].OLDER_THAN);
        if (olderThan === undefined || olderThan <= 0) throw new Error(`[cron.cleanup_packages] OLDER_THAN is not a positive duration`);
        const sessions = await ctx.service(ContainerPackagesService).sweepUploads(olderThan * 1000);
        const spooled = await sweepPackageUploadSpool(ctx.settings);
        return `removed ${sessions} container upload sessions and ${spooled} spooled uploads`;
      },
    },
  ],
  repairs: [
    {
      async run(ctx) {
        await sweepPackageUploadSpool(ctx.settings);
      },
    },
  ],
});
