import { createHash, timingSafeEqual } from 'node:crypto';
import type { H3 } from 'h3';
import { FastResponse } from 'srvx';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MonitoringService, gitProcessStats, type RepoHost, type SiteStatistics } from '@repohost/core';
import type { LineWriter, RequestObserver } from './access-log.js';

/**
 * Prometheus metrics at `/metrics`, as Forgejo's `[metrics] ENABLED` (404 when off) and `TOKEN` (then `Authorization:
 * Bearer TOKEN` or 401), on prom-client, loaded only when metrics are on.
 *
 * - Forgejo's statistics gauges (`gitea_users`, `gitea_repositories`, `gitea_issues`, … as `modules/metrics/
 *   collector.go` names them), counted at scrape time in one statement (one `count(*)` per table), never per request;
 * - requests and their latency per route template (`/api/v1/repos/:owner/:repo`, never the raw path: the series are
 *   as many as the routes), method and status;
 * - git processes running and started, git operations holding and waiting for a slot (this process's);
 * - durable jobs and webhook deliveries waiting, and how late the oldest due one is (the whole installation's);
 * - the PostgreSQL pool (total, idle, requests waiting for a connection);
 * - prom-client's default process metrics, the event loop's delay among them.
 *
 * Each app has a registry of its own (a process may hold several hosts). For a cluster (`--workers`), a worker's
 * registry is what prom-client's AggregatorRegistry collects (`AggregatorRegistry.setRegistries(metrics.registry)`
 * in each worker) and `expose` can be replaced to answer with the primary's aggregate. Every gauge of the whole
 * installation (counts, queues) aggregates with `first`, not summed over the workers; per-process ones are summed.
 */

/** The exposition a scrape receives. */
export interface Exposition {
  contentType: string;
  body: string;
}

/** Seconds the database counts of one scrape may take before the scrape answers without them. */
const STATISTICS_TIMEOUT_MS = 5000;
/** Scrapes within this many milliseconds share one reading of the database (an aggregating primary asks every worker at once). */
const STATISTICS_REUSE_MS = 1000;

/** Histogram buckets (seconds): API calls take milliseconds, clones and pushes minutes. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Forgejo's statistics gauges: name, help, and the counter it shows. */
const SITE_GAUGES: readonly [string, string, keyof SiteStatistics][] = [
  ['gitea_attachments', 'Number of Attachments', 'attachments'],
  ['gitea_comments', 'Number of Comments', 'comments'],
  ['gitea_follows', 'Number of Follows', 'follows'],
  ['gitea_hooktasks', 'Number of HookTasks', 'hookTasks'],
  ['gitea_issues', 'Number of Issues', 'issues'],
  ['gitea_issues_open', 'Number of open Issues', 'issuesOpen'],
  ['gitea_issues_closed', 'Number of closed Issues', 'issuesClosed'],
  ['gitea_labels', 'Number of Labels', 'labels'],
  ['gitea_loginsources', 'Number of LoginSources', 'loginSources'],
  ['gitea_milestones', 'Number of Milestones', 'milestones'],
  ['gitea_mirrors', 'Number of Mirrors', 'mirrors'],
  ['gitea_organizations', 'Number of Organizations', 'organizations'],
  ['gitea_publickeys', 'Number of PublicKeys', 'publicKeys'],
  ['gitea_releases', 'Number of Releases', 'releases'],
  ['gitea_repositories', 'Number of Repositories', 'repositories'],
  ['gitea_stars', 'Number of Stars', 'stars'],
  ['gitea_teams', 'Number of Teams', 'teams'],
  ['gitea_users', 'Number of Users', 'users'],
  ['gitea_watches', 'Number of Watches', 'watches'],
  ['gitea_webhooks', 'Number of Webhooks', 'webhooks'],
];

/**
 * Forgejo's gauges RepoHost has nothing behind: always 0 there too (`oauths`, `updatetasks`), or 0 because RepoHost
 * has no projects. (`gitea_accesses`, Forgejo's table of computed permissions, has no counterpart and is left out.)
 */
const ZERO_GAUGES: readonly [string, string][] = [
  ['gitea_oauths', 'Number of Oauths'],
  ['gitea_projects', 'Number of projects'],
  ['gitea_projects_boards', 'Number of project columns'],
  ['gitea_updatetasks', 'Number of UpdateTasks'],
];

type PromClient = typeof import('prom-client');

/** The database's numbers one scrape shows; a part the database did not give in time is absent. */
export interface Reading {
  stats?: SiteStatistics;
  queues?: Awaited<ReturnType<MonitoringService['queues']>>;
  byLabel?: { label: string; count: number }[];
  byRepository?: { repository: string; count: number }[];
}

export class ServerMetrics {
  readonly registry: Registry;
  /** Answers a scrape; a cluster worker may replace it to answer with the primary's aggregate. */
  expose: () => Promise<Exposition>;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private reading: { at: number; value: Promise<Reading> } | undefined;

  private constructor(
    prom: PromClient,
    private readonly host: RepoHost,
    accessLog: LineWriter | undefined,
  ) {
    const registry = new prom.Registry();
    this.registry = registry;
    prom.collectDefaultMetrics({ register: registry });
    const metrics = this;
    const monitoring = host.service(MonitoringService);
    const { ENABLED_ISSUE_BY_LABEL, ENABLED_ISSUE_BY_REPOSITORY } = host.settings.metrics;

    this.requests = new prom.Counter({
      name: 'repohost_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    this.durations = new prom.Histogram({
      name: 'repohost_http_request_duration_seconds',
      help: 'Time from a request to the end of its response, by method and route template',
      labelNames: ['method', 'route'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });

    // The whole installation's numbers: every worker reads the same database, so a cluster shows one value.
    const siteGauge = (name: string, help: string, read: (reading: Reading) => number | undefined) =>
      new prom.Gauge({
        name,
        help,
        registers: [registry],
        aggregator: 'first',
        async collect() {
          const value = read(await metrics.read());
          if (value !== undefined) this.set(value);
        },
      });
    for (const [name, help, key] of SITE_GAUGES) siteGauge(name, help, (reading) => reading.stats?.[key]);
    for (const [name, help] of ZERO_GAUGES) new prom.Gauge({ name, help, registers: [registry], aggregator: 'first' }).set(0);
    new prom.Gauge({ name: 'gitea_build_info', help: 'Build information', labelNames: ['goarch', 'goos', 'goversion', 'version'] as const, registers: [registry], aggregator: 'first' })
      .set({ goarch: process.arch, goos: process.platform, goversion: process.version, version: host.settings.repohost.REPORTED_VERSION }, 1);
    if (ENABLED_ISSUE_BY_LABEL) labelledSiteGauge(prom, registry, metrics, 'gitea_issues_by_label', 'label', (reading) => reading.byLabel?.map((row) => [row.label, row.count]));
    if (ENABLED_ISSUE_BY_REPOSITORY) {
      labelledSiteGauge(prom, registry, metrics, 'gitea_issues_by_repository', 'repository', (reading) => reading.byRepository?.map((row) => [row.repository, row.count]));
    }
    new prom.Gauge({
      name: 'repohost_statistics_up',
      help: 'Whether the last scrape read the database counts (0: the database did not answer in time)',
      registers: [registry],
      aggregator: 'min',
      async collect() {
        const reading = await metrics.read();
        this.set(reading.stats && reading.queues ? 1 : 0);
      },
    });

    siteGauge('repohost_jobs_queued', 'Durable jobs queued (due now or scheduled later)', (reading) => reading.queues?.jobsQueued);
    siteGauge('repohost_jobs_running', 'Durable jobs a process is running', (reading) => reading.queues?.jobsRunning);
    siteGauge('repohost_jobs_lag_seconds', 'How long the oldest due job has been waiting for a worker (0 when none is due)', (reading) => reading.queues?.jobsLagSeconds);
    siteGauge('repohost_webhook_deliveries_waiting', 'Webhook deliveries not made yet (due now or retried later)', (reading) => reading.queues?.hookTasksWaiting);
    siteGauge('repohost_webhook_deliveries_lag_seconds', 'How long the oldest due webhook delivery has been waiting (0 when none is due)', (reading) => reading.queues?.hookTasksLagSeconds);

    // This process's numbers: summed over a cluster's workers.
    const processGauge = (name: string, help: string, read: () => number) =>
      new prom.Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    processGauge('repohost_git_processes_running', 'git processes running (long-lived object readers included)', () => gitProcessStats().running);
    processGauge('repohost_git_operations_active', 'git operations holding a slot (services, archives, scratch writes)', () => gitProcessStats().active);
    processGauge('repohost_git_operations_queued', 'git operations waiting for a slot', () => gitProcessStats().waiting);
    monotonic(prom, registry, 'repohost_git_processes_started_total', 'git processes started', () => gitProcessStats().started);
    if (host.dialect === 'postgres') {
      processGauge('repohost_db_pool_connections', 'PostgreSQL connections open', () => monitoring.databasePool()?.total ?? 0);
      processGauge('repohost_db_pool_idle_connections', 'PostgreSQL connections open and idle', () => monitoring.databasePool()?.idle ?? 0);
      processGauge('repohost_db_pool_waiting_requests', 'Queries waiting for a PostgreSQL connection', () => monitoring.databasePool()?.waiting ?? 0);
    }
    if (accessLog) monotonic(prom, registry, 'repohost_access_log_dropped_lines_total', 'Access log lines dropped (the output did not keep up, or failed)', () => accessLog.dropped);

    this.expose = async () => ({ contentType: registry.contentType, body: await registry.metrics() });
  }

  /** Loads prom-client (on first use: installations without metrics never load it) and builds the registry. */
  static async create(host: RepoHost, options: { accessLog?: LineWriter } = {}): Promise<ServerMetrics> {
    const loaded = await import('prom-client');
    // A CommonJS module: bundled (the CLI's single file), its exports are only under `default`.
    const prom = ((loaded as { default?: PromClient }).default ?? loaded) as PromClient;
    return new ServerMetrics(prom, host, options.accessLog);
  }

  /** Counts a request and its duration (an access-log observer). */
  readonly observe: RequestObserver = (outcome) => {
    this.requests.inc({ method: outcome.method, route: outcome.route, status: String(outcome.status) });
    this.durations.observe({ method: outcome.method, route: outcome.route }, outcome.durationMs / 1000);
  };

  /**
   * The database's numbers for this scrape: read once and shared by every gauge (and by scrapes within a second),
   * each part within STATISTICS_TIMEOUT_MS; a part that fails or is late is left out, and its gauges keep their
   * last values.
   */
  read(): Promise<Reading> {
    const now = Date.now();
    if (this.reading && now - this.reading.at < STATISTICS_REUSE_MS) return this.reading.value;
    const monitoring = this.host.service(MonitoringService);
    const { ENABLED_ISSUE_BY_LABEL, ENABLED_ISSUE_BY_REPOSITORY } = this.host.settings.metrics;
    const value = (async (): Promise<Reading> => {
      const [stats, queues, byLabel, byRepository] = await Promise.all([
        within(monitoring.statistics(), 'statistics'),
        within(monitoring.queues(), 'queues'),
        ENABLED_ISSUE_BY_LABEL ? within(monitoring.issuesByLabel(), 'issues by label') : undefined,
        ENABLED_ISSUE_BY_REPOSITORY ? within(monitoring.issuesByRepository(), 'issues by repository') : undefined,
      ]);
      return { stats, queues, byLabel, byRepository };
    })();
    this.reading = { at: now, value };
    return value;
  }
}

/** The value of `work`, or undefined (and a line in the log) when it fails or takes longer than STATISTICS_TIMEOUT_MS. */
async function within<T>(work: Promise<T>, what: string): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), STATISTICS_TIMEOUT_MS);
    timer.unref();
  });
  try {
    const result = await Promise.race([work, late]);
    if (result === 'late') {
      console.error(`[repohost] metrics: reading the ${what} took longer than ${STATISTICS_TIMEOUT_MS / 1000} s; left out of this scrape`);
      return undefined;
    }
    return result;
  } catch (error) {
    console.error(`[repohost] metrics: reading the ${what} failed:`, error);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** A gauge with one series per label value, replaced on each scrape that read them. */
function labelledSiteGauge(prom: PromClient, registry: Registry, metrics: ServerMetrics, name: string, label: string, rows: (reading: Reading) => [string, number][] | undefined): Gauge<string> {
  return new prom.Gauge({
    name,
    help: 'Number of Issues',
    labelNames: [label],
    registers: [registry],
    aggregator: 'first',
    async collect() {
      const found = rows(await metrics.read());
      if (!found) return;
      this.reset();
      for (const [value, count] of found) this.set({ [label]: value }, count);
    },
  });
}

/** A counter that follows a running total kept elsewhere. */
function monotonic(prom: PromClient, registry: Registry, name: string, help: string, total: () => number): void {
  let seen = 0;
  new prom.Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = total();
      if (now > seen) this.inc(now - seen);
      seen = Math.max(seen, now);
    },
  });
}

/** Whether `header` is exactly `Bearer <token>`, compared in constant time (as Forgejo's `subtle.ConstantTimeCompare`). */
function bearerMatches(header: string | null, token: string): boolean {
  if (!header) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header), digest(`Bearer ${token}`));
}

/**
 * `/metrics`, registered only when `[metrics] ENABLED` (otherwise the path is not found, as in Forgejo). `metrics`
 * is the app's registry, built while the server starts.
 */
export function registerMetrics(app: H3, host: RepoHost, metrics: Promise<ServerMetrics>): void {
  app.get('/metrics', async (event) => {
    const token = host.settings.metrics.TOKEN;
    // As Forgejo: `http.Error(w, "", 401)`, an empty plain-text line.
    if (token !== '' && !bearerMatches(event.req.headers.get('authorization'), token)) {
      return new FastResponse('\n', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-length': '1' } });
    }
    const { contentType, body } = await (await metrics).expose();
    return new FastResponse(body, { status: 200, headers: { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) } });
  });
}
