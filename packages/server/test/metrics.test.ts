/**
 * Prometheus metrics at `/metrics` (`[metrics] ENABLED`, `TOKEN`): 404 when off, 401 without the bearer token,
 * and the series operators need: Forgejo's `gitea_*` counts, requests and latency per route template, git
 * processes, jobs and webhook deliveries waiting, the database pool, the event loop.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MonitoringService, SYSTEM } from '@repohost/core';
import { TEST_DB, TEST_GIT, createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { uniq } from './helpers';

/** The value of the series `name{labels}` (exact label text, or none) in an exposition; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    if (line.slice(0, space) === series) return Number(line.slice(space + 1));
  }
  return undefined;
}

describe('[metrics] ENABLED = false (the default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.cleanup());

  test('/metrics is not found', async () => {
    const res = await s.fetch('/metrics');
    expect(res.status).toBe(404);
    await res.arrayBuffer();
  });
});

describe('[metrics] TOKEN', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ metrics: { ENABLED: true, TOKEN: 's3cret-scrape-token' } });
  });
  afterAll(async () => s?.cleanup());

  test('401 without the header, with another token, another scheme or a prefix of it; 200 with it', async () => {
    for (const authorization of [undefined, 'Bearer wrong', 'bearer s3cret-scrape-token', 'token s3cret-scrape-token', 'Bearer s3cret-scrape-toke', 'Bearer s3cret-scrape-token2']) {
      const res = await s.fetch('/metrics', { headers: authorization ? { Authorization: authorization } : {} });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('\n');
    }
    const res = await s.fetch('/metrics', { headers: { Authorization: 'Bearer s3cret-scrape-token' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('gitea_users ');
  });
});

describe('the series', () => {
  let s: TestServer;
  let hook: Server;
  beforeAll(async () => {
    s = await startTestServer({ metrics: { ENABLED: true, ENABLED_ISSUE_BY_REPOSITORY: true }, webhook: { ALLOWED_HOST_LIST: 'loopback', DELIVER_TIMEOUT: 30 } });
    // A webhook receiver that never answers: its deliveries stay waiting.
    hook = createServer(() => {});
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    hook?.closeAllConnections();
    hook?.close();
    await s?.cleanup();
  });

  test('no auth when TOKEN is empty; counts, requests per route template, queues, git and the event loop', async () => {
    const owner = uniq('own');
    await createUser(s.host, owner);
    await createUser(s.host, uniq('other'));
    const h = tokenHeader(await createToken(s.host, owner));
    const repo = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo, auto_init: TEST_GIT === 'native' }, h))).status).toBe(201);
    const port = (hook.address() as AddressInfo).port;
    const created = await s.fetch(`/api/v1/repos/${owner}/${repo}/hooks`, jsonInit('POST', { type: 'gitea', config: { url: `http://127.0.0.1:${port}/hook`, content_type: 'json' }, events: ['issues'], active: true }, h));
    expect(created.status).toBe(201);
    for (const title of ['one', 'two']) expect((await s.fetch(`/api/v1/repos/${owner}/${repo}/issues`, jsonInit('POST', { title }, h))).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await s.fetch(`/api/v1/repos/${owner}/${repo}`, { headers: h })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${owner}/nothing-${uniq()}`, { headers: h })).status).toBe(404);
    // A job scheduled an hour from now stays queued.
    await s.host.jobs.enqueue('pushmirror.sync', { mirrorId: 987654321 }, { runAt: Math.floor(Date.now() / 1000) + 3600 });
    if (TEST_GIT === 'native') {
      const refs = await s.fetch(`/${owner}/${repo}.git/info/refs?service=git-upload-pack`, { headers: h });
      expect(refs.status).toBe(200);
      await refs.arrayBuffer();
    }

    const res = await s.fetch('/metrics');
    expect(res.status).toBe(200);
    const text = await res.text();
    const stats = await s.host.service(MonitoringService).statistics();
    // Forgejo's gauges, as the database counts them now.
    expect(sample(text, 'gitea_users')).toBe(stats.users);
    expect(stats.users).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'gitea_repositories')).toBe(stats.repositories);
    expect(sample(text, 'gitea_issues')).toBe(2);
    expect(sample(text, 'gitea_issues_open')).toBe(2);
    expect(sample(text, 'gitea_issues_closed')).toBe(0);
    expect(sample(text, 'gitea_webhooks')).toBe(1);
    expect(sample(text, `gitea_issues_by_repository{repository="${owner}/${repo}"}`)).toBe(2);
    expect(sample(text, 'gitea_oauths')).toBe(0);
    expect(text).toMatch(/^gitea_build_info\{goarch="[^"]+",goos="[^"]+",goversion="v[^"]+",version="[^"]+"\} 1$/m);
    // Requests per route template, never per raw path.
    expect(sample(text, 'repohost_http_requests_total{method="GET",route="/api/v1/repos/:owner/:repo",status="200"}')).toBe(3);
    expect(sample(text, 'repohost_http_requests_total{method="GET",route="/api/v1/repos/:owner/:repo",status="404"}')).toBe(1);
    expect(sample(text, 'repohost_http_requests_total{method="POST",route="/api/v1/repos/:owner/:repo/issues",status="201"}')).toBe(2);
    expect(sample(text, 'repohost_http_request_duration_seconds_count{method="GET",route="/api/v1/repos/:owner/:repo"}')).toBe(4);
    expect(sample(text, 'repohost_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/repos/:owner/:repo"}')).toBe(4);
    expect(text).not.toContain(`route="/api/v1/repos/${owner}`);
    // The work waiting in the database.
    expect(sample(text, 'repohost_jobs_queued')).toBe(1);
    expect(sample(text, 'repohost_jobs_lag_seconds')).toBe(0);
    expect(sample(text, 'repohost_webhook_deliveries_waiting')).toBe(2);
    expect(sample(text, 'repohost_webhook_deliveries_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'repohost_statistics_up')).toBe(1);
    // git, the pool, the event loop.
    expect(sample(text, 'repohost_git_processes_running')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'repohost_git_operations_queued')).toBe(0);
    if (TEST_GIT === 'native') expect(sample(text, 'repohost_git_processes_started_total')).toBeGreaterThan(0);
    if (TEST_DB === 'postgres') expect(sample(text, 'repohost_db_pool_connections')).toBeGreaterThan(0);
    else expect(text).not.toContain('repohost_db_pool_connections');
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
  });

  test('a scrape is counted under the /metrics route, and counts follow the database', async () => {
    const before = await (await s.fetch('/metrics')).text();
    await createUser(s.host, uniq('late'));
    // Scrapes within a second share one reading of the database.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const after = await (await s.fetch('/metrics')).text();
    expect(sample(after, 'gitea_users')).toBe(sample(before, 'gitea_users')! + 1);
    expect(sample(after, 'repohost_http_requests_total{method="GET",route="/metrics",status="200"}')).toBeGreaterThanOrEqual(2);
  });
});

describe('the queues as the monitoring service reads them', () => {
  test('the oldest due job gives the lag; jobs scheduled later do not', async () => {
    // A host that does not serve: nothing claims the jobs.
    const t = await openTestHost();
    try {
      const now = Math.floor(Date.now() / 1000);
      await t.host.jobs.enqueue('pushmirror.sync', { mirrorId: 1 }, { runAt: now - 120 });
      await t.host.jobs.enqueue('pushmirror.sync', { mirrorId: 2 }, { runAt: now - 30 });
      await t.host.jobs.enqueue('pushmirror.sync', { mirrorId: 3 }, { runAt: now + 600 });
      const queues = await t.host.service(MonitoringService).queues();
      expect(queues.jobsQueued).toBe(3);
      expect(queues.jobsRunning).toBe(0);
      expect(queues.jobsLagSeconds).toBeGreaterThanOrEqual(120);
      expect(queues.jobsLagSeconds).toBeLessThan(120 + 60);
      expect(queues.hookTasksWaiting).toBe(0);
      expect(queues.hookTasksLagSeconds).toBe(0);
      expect((await t.host.service(MonitoringService).statistics()).users).toBe(0);
      await t.host.users.create(SYSTEM, { username: uniq('u'), password: 'correct-horse-battery', email: `${uniq('e')}@example.com` });
      expect((await t.host.service(MonitoringService).statistics()).users).toBe(1);
    } finally {
      await t.cleanup();
    }
  });
});
