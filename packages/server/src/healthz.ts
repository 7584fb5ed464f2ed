import type { H3 } from 'h3';
import { FastResponse } from 'srvx';
import { MonitoringService, type RepoHost } from '@repohost/core';

/**
 * `GET /api/healthz`, answered as Forgejo answers it (`routers/web/healthcheck/check.go`), for load balancers: no
 * authentication, `{"status","description","checks"}` indented as Go's `MarshalIndent`, `Content-Type:
 * application/json`, `Cache-Control: no-store`, 200 with `status: pass`, or 424 Failed Dependency (Forgejo's
 * status for it) with `status: fail` when any check failed. Each check is one list of one entry
 * `{"status","time"}` (RFC 3339, UTC, whole seconds), plus `output` saying why when it failed.
 *
 * The checks: Forgejo's `database:ping` (and SQLite's file) and `cache:ping` (RepoHost's caches are in process
 * memory, as Forgejo's default memory cache, which always answers); then RepoHost's storage: `repositories:read`
 * (the repository folder, native git backend) and `<space>:ping` for each blob space (`attachments`, `packages`,
 * `avatars`, `repo-avatars`; a local folder or an S3 bucket): a lookup of a key that is never written. Each check has `[repohost] HEALTHCHECK_TIMEOUT` seconds; they run side by
 * side, so a hung database gives a `fail` after that time, not a hung health check.
 */
export function registerHealthz(app: H3, host: RepoHost): void {
  app.get('/api/healthz', async () => {
    const timeoutMs = Math.max(1, host.settings.repohost.HEALTHCHECK_TIMEOUT) * 1000;
    const results = await host.service(MonitoringService).health(timeoutMs);
    const time = checkTime();
    const entries: [string, { status: 'pass' | 'fail'; time: string; output?: string }][] = results.map((check) => [
      check.name,
      check.ok ? { status: 'pass', time } : { status: 'fail', time, ...(check.output ? { output: check.output } : {}) },
    ]);
    entries.push(['cache:ping', { status: 'pass', time }]);
    // Go writes a map's keys sorted.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const checks: Record<string, unknown[]> = {};
    for (const [name, status] of entries) checks[name] = [status];
    const ok = results.every((check) => check.ok);
    const appName = (host.settings as unknown as Record<string, { APP_NAME?: string } | undefined>)['']?.APP_NAME || 'RepoHost';
    const body = JSON.stringify({ status: ok ? 'pass' : 'fail', description: appName, checks }, null, 2);
    return new FastResponse(body, {
      status: ok ? 200 : 424,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)) },
    });
  });
}

/** Go's `time.Now().UTC().Format(time.RFC3339)`: whole seconds, `Z`. */
function checkTime(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}
