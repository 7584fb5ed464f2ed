/**
 * RepoHost's own recurring tasks (Forgejo has none of these names): tidying that otherwise happens only at start-up
 * or in passing, and checks that heal what an interrupted process left. Each returns a one-line summary.
 */
import type { CoreContext } from '../context.js';
import { AttachmentsService } from '../attachments/index.js';
import { OAuth2Port } from '../oauth2/index.js';
import { PullsService } from '../pulls/index.js';
import { RepoLanguagesService } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { SecurityPort } from '../security/index.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { MaintenanceStore } from './maintenance-store.js';

const REPO_BATCH = 100;

export class CronHousekeepingService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * [cleanup_orphaned_attachments] Files no attachment row names (an upload or deletion a crash cut short) and
   * rows whose issue, comment or release is gone; start-up does the same, this keeps a long-running server tidy.
   */
  async cleanupOrphanedAttachments(): Promise<string> {
    const removed = await this.ctx.service(AttachmentsService).reconcile();
    return `removed ${removed} orphaned attachment files`;
  }

  /** [cleanup_expired_sessions] OAuth2 authorization codes and tokens, and sign-in sessions, past their lifetime. */
  async cleanupExpiredSessions(): Promise<string> {
    const { codes, tokens, sessions } = await this.ctx.port(OAuth2Port).deleteExpired(nowUnix());
    return `removed ${codes} authorization codes, ${tokens} OAuth2 tokens and ${sessions} sessions past their lifetime`;
  }

  /**
   * [cleanup_sign_in_failures] Counters of failed sign-ins whose `[security] LOGIN_FAILURE_WINDOW` has ended, and
   * addresses known to accounts whose last sign-in is older than `LOGIN_KNOWN_ADDRESS_DAYS`.
   */
  async cleanupSignInFailures(): Promise<string> {
    const { LOGIN_FAILURE_WINDOW: window, LOGIN_KNOWN_ADDRESS_DAYS: days } = this.ctx.settings.security;
    const security = this.ctx.port(SecurityPort);
    const now = nowUnix();
    const removed = await security.deleteFailuresStartedBefore(now - Math.max(0, window));
    const forgotten = await security.forgetKnownBefore(now - Math.max(0, days) * 86_400);
    return `removed ${removed} ended sign-in failure counters and ${forgotten} addresses known past LOGIN_KNOWN_ADDRESS_DAYS`;
  }

  /** [check_pull_requests] Open pull requests left "checking" or "error" are checked again. */
  async checkPullRequests(signal: AbortSignal): Promise<string> {
    const checked = await this.ctx.service(PullsService).recheckUnsettled(signal);
    return `checked ${checked} pull requests again`;
  }

  /**
   * [update_repo_languages] Each repository's language statistics and primary language measured again where the
   * default branch moved since (a push whose after-commit measurement never ran).
   */
  async updateRepoLanguages(signal: AbortSignal): Promise<string> {
    const languages = this.ctx.service(RepoLanguagesService);
    let after = 0;
    let count = 0;
    const failures: string[] = [];
    for (;;) {
      if (signal.aborted) break;
      const listed = await this.ctx.store(MaintenanceStore).repositoriesAfter(after, REPO_BATCH);
      if (listed.length === 0) break;
      after = listed[listed.length - 1]!.id;
      const repos = await this.ctx.port(ReposPort).byIds(listed.map((r) => r.id));
      const owners = await this.ctx.port(UsersPort).byIds([...new Set(repos.map((r) => r.owner_id))]);
      for (const repo of repos) {
        const owner = owners.get(repo.owner_id);
        if (!owner || repo.is_empty === 1 || signal.aborted) continue;
        try {
          await languages.refresh(repo, owner);
          count++;
        } catch (error) {
          failures.push(`${owner.lower_name}/${repo.lower_name}: ${(error as Error).message}`);
        }
      }
    }
    const summary = `measured ${count} repositories`;
    return failures.length === 0 ? summary : `${summary}; ${failures.length} failed: ${failures.slice(0, 10).join('; ')}`;
  }
}
