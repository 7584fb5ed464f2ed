/**
 * The work of the recurring tasks, in RepoHost's terms (Forgejo's task names in brackets). Each walks its rows in
 * batches, stops when its signal is aborted, and returns a one-line summary of what it did.
 */
import type { CoreContext } from '../context.js';
import { ConflictError, NotSupportedError, ValidationError } from '../errors.js';
import { SYSTEM } from '../users/index.js';
import { nowUnix } from '../storage/index.js';
import { ReposService } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { RepoStorageService } from '../repos/index.js';
import { UsersService } from '../users/index.js';
import { AccountLifecycleService } from '../accounts/index.js';
import { LoginSourceSyncService } from '../loginsources/index.js';
import { parseGoDuration } from '../go-duration.js';
import { MaintenanceStore, type RepoListing } from './maintenance-store.js';
import type { RepoKey } from '../git/index.js';

/** Repositories read per batch while walking all of them. */
const REPO_BATCH = 100;
const USER_BATCH = 100;
/** Failures named in a summary (the rest are counted). */
const FAILURES_NAMED = 10;

/** Thrown when a task stops because its signal was aborted (timeout or shutdown). */
export class TaskCancelledError extends Error {
  constructor(reason: unknown) {
    super(reason instanceof Error ? reason.message : 'cancelled');
    this.name = 'TaskCancelledError';
  }
}

function checkSignal(signal: AbortSignal): void {
  if (signal.aborted) throw new TaskCancelledError(signal.reason);
}

/** Seconds of a Go duration setting, or an error naming the setting. */
function durationSetting(section: string, key: string, text: string): number {
  const seconds = parseGoDuration(text);
  if (seconds === undefined) throw new ValidationError(key, `[${section}] ${key}: "${text}" is not a duration`);
  return seconds;
}

function splitArgs(text: string): string[] {
  return text.split(/\s+/).filter((arg) => arg !== '');
}

function summarize(done: string, failures: string[]): string {
  if (failures.length === 0) return done;
  const named = failures.slice(0, FAILURES_NAMED).join('; ');
  const more = failures.length > FAILURES_NAMED ? `; and ${failures.length - FAILURES_NAMED} more` : '';
  return `${done}; ${failures.length} failed: ${named}${more}`;
}

export class CronMaintenanceService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): MaintenanceStore {
    return this.ctx.store(MaintenanceStore);
  }

  /** Calls `visit` for every repository, a batch at a time, until done or aborted. */
  private async eachRepository(signal: AbortSignal, visit: (repo: RepoListing, key: RepoKey) => Promise<void>): Promise<number> {
    let after = 0;
    let count = 0;
    for (;;) {
      checkSignal(signal);
      const batch = await this.store.repositoriesAfter(after, REPO_BATCH);
      if (batch.length === 0) return count;
      for (const repo of batch) {
        checkSignal(signal);
        await visit(repo, { owner: repo.owner, name: repo.name });
        count++;
      }
      after = batch[batch.length - 1]!.id;
    }
  }

  /** [repo_health_check] `git fsck` of every repository, each within TIMEOUT; failures are named in the summary. */
  async checkRepositoryHealth(signal: AbortSignal): Promise<string> {
    return this.maintainEach('repo_health_check', 'fsck', signal, {
      done: (count) => `checked ${count} repositories`,
      nothingOnDisk: 'the git backend keeps no repositories on disk to check',
      // A failed check is worth a warning in the log beside the summary's first line.
      failed: (key, output) => console.warn(`[repohost] repository health check failed for ${key.owner}/${key.name}: ${output}`),
    });
  }

  /** [git_gc_repos] `git gc` (with ARGS) of every repository, each within TIMEOUT, and its stored size updated. */
  async collectGarbage(signal: AbortSignal): Promise<string> {
    return this.maintainEach('git_gc_repos', 'gc', signal, {
      done: (count) => `collected garbage in ${count} repositories`,
      nothingOnDisk: 'the git backend keeps no repositories on disk to collect',
      succeeded: async (repo, key) => {
        await this.ctx.port(ReposPort).setSize(repo.id, await this.ctx.git.size(key));
      },
    });
  }

  /** Runs `git <operation>` with the task's TIMEOUT and ARGS on every repository that has storage. */
  private async maintainEach(
    task: 'repo_health_check' | 'git_gc_repos',
    operation: 'fsck' | 'gc',
    signal: AbortSignal,
    report: {
      done: (count: number) => string;
      nothingOnDisk: string;
      failed?: (key: RepoKey, output: string) => void;
      succeeded?: (repo: RepoListing, key: RepoKey) => Promise<void>;
    },
  ): Promise<string> {
    const config = this.ctx.settings[`cron.${task}`];
    const timeoutMs = durationSetting(`cron.${task}`, 'TIMEOUT', config.TIMEOUT) * 1000;
    const args = splitArgs(config.ARGS);
    const failures: string[] = [];
    try {
      const count = await this.eachRepository(signal, async (repo, key) => {
        if (!(await this.ctx.git.exists(key))) return;
        const result = await this.ctx.git.maintain(key, operation, { args, timeoutMs, signal });
        if (!result.ok) {
          failures.push(`${key.owner}/${key.name}: ${result.output.split('\n')[0] ?? ''}`);
          report.failed?.(key, result.output);
          return;
        }
        await report.succeeded?.(repo, key);
      });
      return summarize(report.done(count), failures);
    } catch (error) {
      if (error instanceof NotSupportedError) return report.nothingOnDisk;
      throw error;
    }
  }

  /** [check_repo_stats] Every stored counter set back to the count of what it counts. */
  async checkRepoStats(signal: AbortSignal): Promise<string> {
    checkSignal(signal);
    const { fixed, byCounter } = await this.store.recountAll();
    const changed = Object.entries(byCounter)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${name} ×${n}`);
    return fixed === 0 ? 'all counters agree' : `corrected ${fixed} counters (${changed.join(', ')})`;
  }

  /** [sync_external_users] Accounts of the login sources with synchronization on, brought in line with their directories. */
  async syncExternalUsers(signal: AbortSignal): Promise<string> {
    checkSignal(signal);
    const results = await this.ctx.service(LoginSourceSyncService).syncAll(signal, this.ctx.settings['cron.sync_external_users'].UPDATE_EXISTING);
    checkSignal(signal);
    if (results.length === 0) return 'no login source synchronizes its users';
    return results
      .map((r) =>
        r.skipped
          ? `${r.source}: skipped (${r.skipped})`
          : summarize(`${r.source}: created ${r.created}, updated ${r.updated}, deactivated ${r.deactivated}`, r.failures),
      )
      .join('; ');
  }

  /** [resync_all_hooks] The hooks every push runs, written again. */
  async resyncHooks(signal: AbortSignal): Promise<string> {
    checkSignal(signal);
    try {
      await this.ctx.git.syncHooks();
      return 'server hooks written';
    } catch (error) {
      if (error instanceof NotSupportedError) return 'the git backend runs no hooks';
      throw error;
    }
  }

  /** Repositories whose storage is missing, except those a change in progress (an intent) is about to make. */
  private async missingRepositories(): Promise<RepoKey[]> {
    const { missing } = await this.ctx.service(RepoStorageService).check();
    if (missing.length === 0) return missing;
    const busy = new Set((await this.ctx.port(ReposPort).intents()).map((intent) => `${intent.owner_name}/${intent.repo_name}`));
    return missing.filter((key) => !busy.has(`${key.owner}/${key.name}`));
  }

  /** [reinit_missing_repos] An empty repository made again where a repository's storage is missing. */
  async reinitMissingRepositories(signal: AbortSignal): Promise<string> {
    const missing = await this.missingRepositories();
    const repos = this.ctx.service(ReposService);
    const failures: string[] = [];
    let done = 0;
    for (const key of missing) {
      checkSignal(signal);
      try {
        const { repo } = await repos.resolve(SYSTEM, key.owner, key.name);
        await this.ctx.git.create(key, { objectFormat: repo.object_format_name === 'sha256' ? 'sha256' : 'sha1', defaultBranch: repo.default_branch });
        await this.ctx.port(ReposPort).resetToEmpty(repo.id, nowUnix());
        done++;
      } catch (error) {
        failures.push(`${key.owner}/${key.name}: ${(error as Error).message}`);
      }
    }
    return summarize(`reinitialized ${done} of ${missing.length} missing repositories`, failures);
  }

  /** [delete_missing_repos] Repositories whose storage is missing, deleted. */
  async deleteMissingRepositories(signal: AbortSignal): Promise<string> {
    const missing = await this.missingRepositories();
    const repos = this.ctx.service(ReposService);
    const failures: string[] = [];
    let done = 0;
    for (const key of missing) {
      checkSignal(signal);
      try {
        await repos.delete(SYSTEM, await repos.resolve(SYSTEM, key.owner, key.name));
        done++;
      } catch (error) {
        failures.push(`${key.owner}/${key.name}: ${(error as Error).message}`);
      }
    }
    return summarize(`deleted ${done} of ${missing.length} missing repositories`, failures);
  }

  /** [delete_old_actions] Activity feed entries older than OLDER_THAN. */
  async deleteOldActions(signal: AbortSignal): Promise<string> {
    checkSignal(signal);
    const olderThan = durationSetting('cron.delete_old_actions', 'OLDER_THAN', this.ctx.settings['cron.delete_old_actions'].OLDER_THAN);
    if (olderThan <= 0) return 'OLDER_THAN is not positive: nothing deleted';
    const deleted = await this.store.deleteActionsBefore(nowUnix() - olderThan, signal);
    return `deleted ${deleted} activity entries`;
  }

  /** [cleanup_hook_task_table] Webhook deliveries older than OLDER_THAN, or beyond NUMBER_TO_KEEP per hook. */
  async cleanupHookTasks(signal: AbortSignal): Promise<string> {
    checkSignal(signal);
    const config = this.ctx.settings['cron.cleanup_hook_task_table'];
    const type = config.CLEANUP_TYPE.toLowerCase();
    if (type === 'olderthan') {
      const olderThan = durationSetting('cron.cleanup_hook_task_table', 'OLDER_THAN', config.OLDER_THAN);
      const deleted = await this.store.deleteDeliveriesBefore(nowUnix() - Math.max(0, olderThan), signal);
      return `deleted ${deleted} webhook deliveries older than ${config.OLDER_THAN}`;
    }
    if (type === 'perwebhook') {
      const deleted = await this.store.deleteDeliveriesBeyond(config.NUMBER_TO_KEEP);
      return `deleted ${deleted} webhook deliveries beyond ${config.NUMBER_TO_KEEP} per webhook`;
    }
    throw new ValidationError('CLEANUP_TYPE', `[cron.cleanup_hook_task_table] CLEANUP_TYPE: "${config.CLEANUP_TYPE}" is neither OlderThan nor PerWebhook`);
  }

  /**
   * [delete_inactive_accounts] Accounts never activated, created more than OLDER_THAN ago; as Forgejo, one that
   * still owns repositories or belongs to organizations is kept.
   */
  async deleteInactiveAccounts(signal: AbortSignal): Promise<string> {
    const olderThan = durationSetting('cron.delete_inactive_accounts', 'OLDER_THAN', this.ctx.settings['cron.delete_inactive_accounts'].OLDER_THAN);
    const before = nowUnix() - Math.max(0, olderThan);
    const users = this.ctx.service(UsersService);
    let after = 0;
    let deleted = 0;
    let kept = 0;
    for (;;) {
      checkSignal(signal);
      const batch = await this.store.inactiveUsersAfter(after, before, USER_BATCH);
      if (batch.length === 0) break;
      for (const row of batch) {
        checkSignal(signal);
        const user = await users.findById(row.id);
        if (!user) continue;
        try {
          await this.ctx.service(AccountLifecycleService).deleteUser(SYSTEM, user, { purge: false });
          deleted++;
        } catch (error) {
          if (!(error instanceof ConflictError || error instanceof ValidationError)) throw error;
          kept++;
        }
      }
      after = batch[batch.length - 1]!.id;
    }
    return `deleted ${deleted} inactive accounts${kept > 0 ? `; kept ${kept} that still own repositories or belong to organizations` : ''}`;
  }
}
