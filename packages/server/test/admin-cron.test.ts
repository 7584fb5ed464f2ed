/**
 * `/admin/cron`: every registered recurring task listed (paged, with X-Total-Count) in Forgejo's `Cron` shape,
 * and run by hand in the background; site administrators only, with the admin token scope.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CronSchema, matchesSchema } from '@repohost/core';
import { createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

describe('/admin/cron', () => {
  let s: TestServer;
  let adminName: string;
  let admin: Record<string, string>;
  let user: Record<string, string>;

  beforeAll(async () => {
    s = await startTestServer();
    adminName = uniq('adm');
    await createUser(s.host, adminName, { admin: true });
    admin = tokenHeader(await createToken(s.host, adminName));
    const userName = uniq('usr');
    await createUser(s.host, userName);
    user = tokenHeader(await createToken(s.host, userName));
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('lists every registered task in order, scheduled or not, in the Cron shape', async () => {
    const res = await s.fetch('/api/v1/admin/cron', { headers: admin });
    expect(res.status).toBe(200);
    const tasks = await json<Record<string, unknown>[]>(res);
    expect(res.headers.get('x-total-count')).toBe(String(s.host.cron.names.length));
    expect(tasks.map((t) => t.name)).toEqual(s.host.cron.names);
    for (const task of tasks) expect(matchesSchema(CronSchema, task), JSON.stringify(task)).toBe(true);
    const byName = new Map(tasks.map((t) => [t.name as string, t]));
    // Enabled: its schedule and the next run; disabled: `-` and Go's zero time.
    expect(byName.get('repo_health_check')).toMatchObject({ schedule: '@midnight' });
    expect(Date.parse(byName.get('repo_health_check')!.next as string)).toBeGreaterThan(Date.now());
    expect(byName.get('git_gc_repos')).toMatchObject({ schedule: '-', next: '0001-01-01T00:00:00Z', prev: '0001-01-01T00:00:00Z', exec_times: 0 });

    const page = await s.fetch('/api/v1/admin/cron?limit=2&page=2', { headers: admin });
    expect((await json<{ name: string }[]>(page)).map((t) => t.name)).toEqual(s.host.cron.names.slice(2, 4));
    expect(page.headers.get('x-total-count')).toBe(String(s.host.cron.names.length));
  });

  test('runs a task in the background: 204, then its run is counted', async () => {
    const res = await s.fetch('/api/v1/admin/cron/delete_old_actions', { method: 'POST', headers: admin });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await s.host.cron.idle();
    const listed = (await json<Record<string, unknown>[]>(await s.fetch('/api/v1/admin/cron?limit=50', { headers: admin }))).find((t) => t.name === 'delete_old_actions');
    expect(listed).toMatchObject({ schedule: '-', exec_times: 1 });
    expect(Date.parse(listed!.prev as string)).toBeGreaterThan(Date.now() - 60_000);

    const unknown = await s.fetch('/api/v1/admin/cron/no_such_task', { method: 'POST', headers: admin });
    expect(await expectApiError(unknown, 404, s.url)).toBe("The target couldn't be found.");
  });

  test('site administrators only, with the admin scope', async () => {
    await expectApiError(await s.fetch('/api/v1/admin/cron', { headers: user }), 403, s.url);
    await expectApiError(await s.fetch('/api/v1/admin/cron/delete_old_actions', { method: 'POST', headers: user }), 403, s.url);
    await expectApiError(await s.fetch('/api/v1/admin/cron'), 401, s.url);
    await expectApiError(await s.fetch('/api/v1/admin/cron/delete_old_actions', { method: 'POST' }), 401, s.url);
    const readOnly = tokenHeader(await createToken(s.host, adminName, ['read:admin']));
    expect((await s.fetch('/api/v1/admin/cron', { headers: readOnly })).status).toBe(200);
    await expectApiError(await s.fetch('/api/v1/admin/cron/delete_old_actions', { method: 'POST', headers: readOnly }), 403, s.url);
    const userScope = tokenHeader(await createToken(s.host, adminName, ['write:user']));
    await expectApiError(await s.fetch('/api/v1/admin/cron', { headers: userScope }), 403, s.url);
  });
});
