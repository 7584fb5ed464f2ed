/**
 * The one list of recurring tasks, under Forgejo's names and in Forgejo's order, then RepoHost's own, each
 * configured by its `[cron.<name>]` section (ENABLED, RUN_AT_START, SCHEDULE and its own keys). Only tasks that do
 * real work in RepoHost are listed: Forgejo's tasks over things RepoHost does not keep (packages, actions, LFS,
 * archives on disk, an authorized_keys file, system notices, deleted branches) are not.
 */
import type { Settings } from '../config/settings.js';
import type { CoreContext } from '../context.js';
import { CronMaintenanceService } from './maintenance.js';
import { CronHousekeepingService } from './housekeeping.js';
import { MirrorsService } from '../mirrors/service.js';
import { PushMirrorsService } from '../pushmirrors/service.js';

/** Sections of settings that configure a task. */
export type CronSection = Extract<keyof Settings, `cron.${string}`>;
export type CronTaskName = CronSection extends `cron.${infer Name}` ? Name : never;

/** The keys every task's section has. */
export interface CronTaskConfig {
  ENABLED: boolean;
  RUN_AT_START: boolean;
  SCHEDULE: string;
  NOTICE_ON_SUCCESS: boolean;
}

export interface CronTaskDefinition {
  name: CronTaskName;
  /** Seconds one run may take; then its signal is aborted. */
  timeoutSeconds: number;
  /** Whether the task exists at all with these settings (Forgejo registers some only when their feature is on). */
  registered?(settings: Settings): boolean;
  /** One run; returns a one-line summary. Throwing records the error as the run's outcome. */
  run(ctx: CoreContext, signal: AbortSignal): Promise<string>;
}

const maintenance = (ctx: CoreContext) => ctx.service(CronMaintenanceService);
const housekeeping = (ctx: CoreContext) => ctx.service(CronHousekeepingService);

export const CRON_TASKS: readonly CronTaskDefinition[] = [
  // Queues the syncs of pull and push mirrors whose interval passed (the jobs do the fetching and pushing).
  {
    name: 'update_mirrors',
    timeoutSeconds: 600,
    registered: (settings) => settings.mirror.ENABLED,
    run: async (ctx) => {
      const pull = await ctx.service(MirrorsService).enqueueDue();
      const push = await ctx.service(PushMirrorsService).enqueueDue();
      return `queued ${pull} pull mirror and ${push} push mirror syncs`;
    },
  },
  { name: 'repo_health_check', timeoutSeconds: 6 * 3600, run: (ctx, signal) => maintenance(ctx).checkRepositoryHealth(signal) },
  { name: 'check_repo_stats', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).checkRepoStats(signal) },
  { name: 'sync_external_users', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).syncExternalUsers(signal) },
  { name: 'cleanup_hook_task_table', timeoutSeconds: 3600, run: (ctx, signal) => maintenance(ctx).cleanupHookTasks(signal) },
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
];

/** A task's section of the settings. */
export function cronConfig(settings: Settings, name: CronTaskName): CronTaskConfig {
  return settings[`cron.${name}`];
}
