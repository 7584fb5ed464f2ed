import { access, constants, stat } from 'node:fs/promises';
import type { CoreContext } from '../context.js';
import { BLOB_SPACES, BlobsService } from '../blobs/index.js';
import { nowUnix } from '../storage/index.js';
import { MonitoringStore, type PoolStatistics, type QueueStatistics, type SiteStatistics } from './store.js';

/** The key a blob space is asked about: valid, and never written. */
const PROBE_KEY = 'healthcheck-probe';

/** One check of the health report: `name` as Forgejo's `component:measurement` (`database:ping`). */
export interface HealthCheck {
  name: string;
  ok: boolean;
  /** Why it failed, in a few words fit for an anonymous caller (details go to the server's log). */
  output?: string;
}

/** A check that did not finish within its time. */
class CheckTimeout extends Error {}

/**
 * What operators watch: the health of the database and storage (`GET /api/healthz`), the site's counters and the
 * work waiting in the database (`/metrics`). Reads only.
 */
export class MonitoringService {
  /** The checks running now, by name: a check still waiting (a hung database) is joined, never started twice. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly ctx: CoreContext) {}

  private get store(): MonitoringStore {
    return this.ctx.store(MonitoringStore);
  }

  /** Forgejo's statistics counters: one `count(*)` per table, in one statement. */
  statistics(): Promise<SiteStatistics> {
    return this.store.statistics();
  }

  /** Issues per label name (`[metrics] ENABLED_ISSUE_BY_LABEL`). */
  issuesByLabel(): Promise<{ label: string; count: number }[]> {
    return this.store.issuesByLabel();
  }

  /** Issues per repository, `owner/name` (`[metrics] ENABLED_ISSUE_BY_REPOSITORY`). */
  issuesByRepository(): Promise<{ repository: string; count: number }[]> {
    return this.store.issuesByRepository();
  }

  /** Jobs and webhook deliveries waiting, with how late the oldest due one is (seconds, 0 when none is due). */
  async queues(): Promise<QueueStatistics & { jobsLagSeconds: number; hookTasksLagSeconds: number }> {
    const now = nowUnix();
    const queues = await this.store.queues(now);
    const lag = (since: number | null) => (since === null ? 0 : Math.max(0, now - since));
    return { ...queues, jobsLagSeconds: lag(queues.oldestDueJobUnix), hookTasksLagSeconds: lag(queues.oldestDueHookTaskUnix) };
  }

  /** The database connection pool (PostgreSQL); undefined on SQLite. */
  databasePool(): PoolStatistics | undefined {
    return this.store.pool();
  }

  /**
   * The health checks, each given at most `timeoutMs` (they run side by side, so the report takes about that at
   * most): the database answers (and SQLite's file is there, as Forgejo checks), the repository folder can be read,
   * and every blob space answers a lookup.
   */
  async health(timeoutMs: number): Promise<HealthCheck[]> {
    const settings = this.ctx.settings;
    const checks: [string, () => Promise<void>][] = [['database:ping', () => this.pingDatabase()]];
    if (settings.repository.BACKEND === 'native') checks.push(['repositories:read', () => readableFolder(settings.repository.ROOT)]);
    const blobs = this.ctx.service(BlobsService);
    for (const space of BLOB_SPACES) {
      checks.push([`${space}:ping`, async () => void (await blobs.storage(space).exists(PROBE_KEY))]);
    }
    return Promise.all(checks.map(([name, run]) => this.check(name, run, timeoutMs)));
  }

  private async pingDatabase(): Promise<void> {
    await this.store.ping();
    const { DB_TYPE, PATH } = this.ctx.settings.database;
    // As Forgejo: an SQLite database whose file has gone is not healthy, whatever the open connection still answers.
    if (DB_TYPE === 'sqlite3' && PATH !== ':memory:') await stat(PATH);
  }

  private async check(name: string, run: () => Promise<void>, timeoutMs: number): Promise<HealthCheck> {
    let pending = this.running.get(name);
    if (!pending) {
      pending = run();
      this.running.set(name, pending);
      const done = () => {
        if (this.running.get(name) === pending) this.running.delete(name);
      };
      pending.then(done, done);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CheckTimeout()), timeoutMs);
      timer.unref();
    });
    try {
      await Promise.race([pending, timeout]);
      return { name, ok: true };
    } catch (error) {
      if (error instanceof CheckTimeout) return { name, ok: false, output: `no answer within ${Math.round(timeoutMs / 100) / 10} s` };
      console.error(`[repohost] health check ${name} failed:`, error);
      const code = (error as { code?: unknown } | null)?.code;
      return { name, ok: false, output: typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `failed (${code})` : 'failed' };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The repository folder can be listed. A folder not created yet (no repository has been created) is fine: the
 * first creation makes it.
 */
async function readableFolder(folder: string): Promise<void> {
  try {
    await access(folder, constants.R_OK | constants.X_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
