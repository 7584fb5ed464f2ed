import type { CoreContext } from '../context.js';
import { parseGoDuration } from '../go-duration.js';
import { ContainerPackagesService } from './container.js';
import { sweepPackageUploadSpool } from './spool.js';

/**
 * Forgejo's `cleanup_packages` task, for what uploads leave here: container upload sessions untouched for
 * `[cron.cleanup_packages] OLDER_THAN`, and spooled uploads a crash cut off. Returns the run's one-line summary.
 */
export async function cleanupPackageUploads(ctx: CoreContext): Promise<string> {
  const olderThan = parseGoDuration(ctx.settings['cron.cleanup_packages'].OLDER_THAN);
  if (olderThan === undefined || olderThan <= 0) throw new Error('[cron.cleanup_packages] OLDER_THAN is not a positive duration');
  const sessions = await ctx.service(ContainerPackagesService).sweepUploads(olderThan * 1000);
  const spooled = await sweepPackageUploadSpool(ctx.settings);
  return `removed ${sessions} container upload sessions and ${spooled} spooled uploads`;
}
