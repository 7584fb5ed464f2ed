import { defineDomain } from '../domain.js';
import type { CoreContext } from '../context.js';
import { CronMaintenanceService } from './maintenance.js';
import { CronHousekeepingService } from './housekeeping.js';
import { cleanupPackageUploads } from '../packages/index.js';

const maintenance = (ctx: CoreContext) => ctx.service(CronMaintenanceService);
const housekeeping = (ctx: CoreContext) => ctx.service(CronHousekeepingService);

/**
 * Maintenance across domains: Forgejo's basic tasks under its names and in its order (Forgejo's Actions tasks follow
 * them, `actions.tasks` in `domains.ts`), then its extended tasks and RepoHost's own (`maintenanceExtendedDomain`).
 */
export const maintenanceDomain = defineDomain({
  name: 'maintenance',
  cron: [
    { name: 'repo_health_check', timeoutSeconds: 6 * 3600, run: (ctx, signal) => maintenance(ctx).checkRepositoryHealth(signal) },
    { name: 'check_repo_stats', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).checkRepoStats(signal) },
    { name: 'sync_external_users', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).syncExternalUsers(signal) },
    { name: 'cleanup_hook_task_table', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).cleanupHookTasks(signal) },
    { name: 'cleanup_packages', timeoutSeconds: 3600, run: (ctx) => cleanupPackageUploads(ctx) },
  ],
});

/** Forgejo's extended maintenance tasks, then RepoHost's own. */
export const maintenanceExtendedDomain = defineDomain({
  name: 'maintenance.extended',
  cron: [
    { name: 'delete_inactive_accounts', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).deleteInactiveAccounts(signal) },
    { name: 'git_gc_repos', timeoutSeconds: 12 * 3600, run: (ctx, signal) => maintenance(ctx).collectGarbage(signal) },
    { name: 'resync_all_hooks', timeoutSeconds: 600, run: (ctx, signal) => maintenance(ctx).resyncHooks(signal) },
    { name: 'reinit_missing_repos', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).reinitMissingRepositories(signal) },
    { name: 'delete_missing_repos', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).deleteMissingRepositories(signal) },
    { name: 'delete_old_actions', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).deleteOldActions(signal) },
    // RepoHost's own: tidying otherwise done only at start-up or in passing, and healing what a crash left.
    { name: 'cleanup_orphaned_attachments', timeoutSeconds: 3600, run: (ctx) => housekeeping(ctx).cleanupOrphanedAttachments() },
    { name: 'cleanup_expired_sessions', timeoutSeconds: 600, run: (ctx) => housekeeping(ctx).cleanupExpiredSessions() },
    { name: 'cleanup_sign_in_failures', timeoutSeconds: 600, run: (ctx) => housekeeping(ctx).cleanupSignInFailures() },
    { name: 'check_pull_requests', timeoutSeconds: 3600, run: (ctx, signal) => housekeeping(ctx).checkPullRequests(signal) },
    { name: 'update_repo_languages', timeoutSeconds: 6 * 3600, run: (ctx, signal) => housekeeping(ctx).updateRepoLanguages(signal) },
  ],
});
