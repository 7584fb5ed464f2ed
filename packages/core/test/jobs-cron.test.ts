/**
 * Recurring tasks: schedules as Forgejo reads them, durable next and previous runs across restarts, a run due
 * while the server was down happening once at start, one process per due run, and manual runs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RepoHost, SYSTEM, openStorage, parseSchedule, userActor, type Storage } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';

describe('cron schedules', () => {
  const at = (text: string) => new Date(text).getTime();
  const local = (ms: number) => {
    const d = new Date(ms);
    return [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
  };

  it('reads @every durations as constant delays', () => {
    const every = parseSchedule('@every 10m')!;
    expect(every.next(at('2026-01-01T00:00:00Z'))).toBe(at('2026-01-01T00:10:00Z'));
    expect(parseSchedule('@every 72h')!.next(at('2026-01-01T00:00:00Z'))).toBe(at('2026-01-04T00:00:00Z'));
    expect(parseSchedule('@every 1h30m')!.next(at('2026-01-01T00:00:00Z'))).toBe(at('2026-01-01T01:30:00Z'));
    expect(parseSchedule('@every 10x')).toBeUndefined();
    expect(parseSchedule('@every')).toBeUndefined();
  });

  it('reads descriptors and cron expressions in local time', () => {
    const start = new Date(2026, 0, 15, 10, 20, 30).getTime(); // a Thursday
    expect(local(parseSchedule('@midnight')!.next(start))).toEqual([2026, 1, 16, 0, 0, 0]);
    expect(local(parseSchedule('@daily')!.next(start))).toEqual([2026, 1, 16, 0, 0, 0]);
    expect(local(parseSchedule('@hourly')!.next(start))).toEqual([2026, 1, 15, 11, 0, 0]);
    expect(local(parseSchedule('@weekly')!.next(start))).toEqual([2026, 1, 18, 0, 0, 0]);
    expect(local(parseSchedule('@monthly')!.next(start))).toEqual([2026, 2, 1, 0, 0, 0]);
    expect(local(parseSchedule('@annually')!.next(start))).toEqual([2027, 1, 1, 0, 0, 0]);
    expect(local(parseSchedule('@yearly')!.next(start))).toEqual([2027, 1, 1, 0, 0, 0]);
    // Five fields: minute hour day month weekday.
    expect(local(parseSchedule('*/15 * * * *')!.next(start))).toEqual([2026, 1, 15, 10, 30, 0]);
    expect(local(parseSchedule('0 3 * * MON-FRI')!.next(start))).toEqual([2026, 1, 16, 3, 0, 0]);
    expect(local(parseSchedule('0 3 * * sat')!.next(start))).toEqual([2026, 1, 17, 3, 0, 0]);
    expect(local(parseSchedule('0 0 1 jan,jul *')!.next(start))).toEqual([2026, 7, 1, 0, 0, 0]);
    // Six fields: seconds first.
    expect(local(parseSchedule('45 20 10 * * *')!.next(start))).toEqual([2026, 1, 15, 10, 20, 45]);
    expect(local(parseSchedule('5/20 * * * * ?')!.next(start))).toEqual([2026, 1, 15, 10, 20, 45]);
    // Day of month and day of week both restricted: either matches.
    expect(local(parseSchedule('0 0 20 * SUN')!.next(start))).toEqual([2026, 1, 18, 0, 0, 0]);
    // Strictly after: a time that matches now runs next time.
    expect(local(parseSchedule('30 20 10 * * *')!.next(start))).toEqual([2026, 1, 16, 10, 20, 30]);
    for (const bad of ['', '* * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '* * * 13 *', '* * * * 7', '*/0 * * * *', '5-1 * * * *', 'a b c d e', '1,,2 * * * *']) {
      expect(parseSchedule(bad), bad).toBeUndefined();
    }
  });
});

/** The tasks a start runs at once with the default settings, in `/admin/cron`'s order. */
const AT_START = ['check_repo_stats', 'stop_zombie_tasks', 'stop_endless_tasks', 'cancel_abandoned_jobs', 'check_pull_requests'];

describe('cron tasks: durable schedule', () => {
  let t: TestHost;
  let host: RepoHost;
  let raw: Storage;
  const others: RepoHost[] = [];

  beforeEach(async () => {
    t = await openTestHost({ database: { PATH: 'cron.db' } });
    host = t.host;
    raw = await openStorage(host.settings.database);
  });
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await raw.close();
    await t.cleanup();
  });

  const row = async (name: string) => (await host.cron.state(name))!;
  const reopen = async () => {
    const other = await RepoHost.open({ settings: host.settings, reconcile: false });
    others.push(other);
    return other;
  };

  it('plans enabled tasks, runs RUN_AT_START ones at once, and keeps next and prev across a restart', async () => {
    const before = Math.floor(Date.now() / 1000);
    const ran = await host.cron.runDue();
    // check_repo_stats and the Actions sweeps run at start (Forgejo's defaults), and RepoHost's check_pull_requests;
    // the other enabled tasks wait for their schedule.
    expect(ran).toEqual(AT_START);
    const stats = await row('check_repo_stats');
    expect(Number(stats.exec_times)).toBe(1);
    expect(Number(stats.prev_unix)).toBeGreaterThanOrEqual(before);
    expect(stats.last_error).toBe('');
    expect(stats.last_message).toBe('all counters agree');
    // @midnight: the next local midnight.
    const midnight = new Date();
    midnight.setHours(24, 0, 0, 0);
    expect(Number(stats.next_unix)).toBe(midnight.getTime() / 1000);
    const health = await row('repo_health_check');
    expect(Number(health.next_unix)).toBe(midnight.getTime() / 1000);
    expect(Number(health.exec_times)).toBe(0);
    // Disabled tasks are not planned.
    expect(Number((await row('git_gc_repos')).next_unix)).toBe(0);

    // Another start keeps the planned time of a task that is not RUN_AT_START, and runs nothing else.
    const restarted = await reopen();
    expect(await restarted.cron.runDue()).toEqual(AT_START);
    expect(Number((await row('repo_health_check')).next_unix)).toBe(midnight.getTime() / 1000);
    expect(Number((await row('check_repo_stats')).exec_times)).toBe(2);
  });

  it('a run due while the server was down happens once at start, and the schedule moves on', async () => {
    await host.cron.runDue();
    // The server was down over the planned time (by a day).
    await raw.db.updateTable('cron_task').set({ next_unix: Math.floor(Date.now() / 1000) - 86400 }).where('name', '=', 'cleanup_hook_task_table').execute();
    const restarted = await reopen();
    expect(await restarted.cron.runDue()).toEqual(['check_repo_stats', 'cleanup_hook_task_table', ...AT_START.slice(1)]);
    const cleanup = await row('cleanup_hook_task_table');
    expect(Number(cleanup.exec_times)).toBe(1);
    expect(Number(cleanup.next_unix)).toBeGreaterThan(Date.now() / 1000);
    expect(cleanup.last_message).toMatch(/^deleted 0 webhook deliveries/);
    // Once: nothing of it is due any more.
    expect(await restarted.cron.runDue()).toEqual(AT_START);
    expect(Number((await row('cleanup_hook_task_table')).exec_times)).toBe(1);
  });

  it('of two processes, one runs a due task; a task held under a live lease is not run again', async () => {
    await host.cron.runDue();
    const other = await reopen();
    await raw.db.updateTable('cron_task').set({ next_unix: Math.floor(Date.now() / 1000) - 1 }).where('name', '=', 'repo_health_check').execute();
    await Promise.all([host.cron.runDue(), other.cron.runDue()]);
    expect(Number((await row('repo_health_check')).exec_times)).toBe(1);

    // Held by a live process: neither a scheduled nor a manual run starts.
    await raw.db
      .updateTable('cron_task')
      .set({ next_unix: Math.floor(Date.now() / 1000) - 1, lease_owner: 'elsewhere', lease_until_unix: Math.floor(Date.now() / 1000) + 600 })
      .where('name', '=', 'repo_health_check')
      .execute();
    await host.cron.runDue();
    await host.cron.run(SYSTEM, 'repo_health_check');
    await host.cron.idle();
    expect(Number((await row('repo_health_check')).exec_times)).toBe(1);
    // Its lease expired (the process died): taken over.
    await raw.db.updateTable('cron_task').set({ lease_until_unix: Math.floor(Date.now() / 1000) - 1 }).where('name', '=', 'repo_health_check').execute();
    await host.cron.run(SYSTEM, 'repo_health_check');
    await host.cron.idle();
    expect(Number((await row('repo_health_check')).exec_times)).toBe(2);
  });

  it('runs a task by hand, disabled or not; unknown names and non-administrators are refused', async () => {
    const alice = await createUser(host, 'alice');
    await expect(host.cron.run(SYSTEM, 'no_such_task')).rejects.toThrow(/couldn't be found/);
    await expect(host.cron.run(userActor(alice), 'delete_old_actions')).rejects.toThrow('reqSiteAdmin');
    await expect(host.cron.list(userActor(alice))).rejects.toThrow('reqSiteAdmin');
    await host.cron.run(SYSTEM, 'delete_old_actions');
    await host.cron.idle();
    const state = await row('delete_old_actions');
    expect(Number(state.exec_times)).toBe(1);
    expect(state.last_message).toBe('deleted 0 activity entries');
    // A manual run leaves the schedule alone (a disabled task stays unplanned).
    expect(Number(state.next_unix)).toBe(0);
    const page = await host.cron.list(SYSTEM, { page: 1, limit: 50 });
    expect(page.items.map((c) => c.name)).toEqual(host.cron.names);
    expect(page.items.find((c) => c.name === 'delete_old_actions')).toMatchObject({ schedule: '-', next: '0001-01-01T00:00:00Z', exec_times: 1 });
    expect(page.items.find((c) => c.name === 'check_repo_stats')).toMatchObject({ schedule: '@midnight' });
  });

  it('a task that fails records its error; a bad schedule leaves the task to manual runs', async () => {
    const bad = await openTestHost({
      'cron.cleanup_hook_task_table': { CLEANUP_TYPE: 'Sometimes' },
      'cron.repo_health_check': { SCHEDULE: 'every now and then' },
    });
    try {
      await bad.host.cron.run(SYSTEM, 'cleanup_hook_task_table');
      await bad.host.cron.idle();
      const state = (await bad.host.cron.state('cleanup_hook_task_table'))!;
      expect(state.last_error).toMatch(/CLEANUP_TYPE: "Sometimes"/);
      expect(Number(state.exec_times)).toBe(1);
      await bad.host.cron.runDue();
      const listed = (await bad.host.cron.list(SYSTEM)).items.find((c) => c.name === 'repo_health_check');
      expect(listed).toMatchObject({ schedule: '-', next: '0001-01-01T00:00:00Z' });
    } finally {
      await bad.cleanup();
    }
  });

  it('update_mirrors queues the due mirror syncs, and exists only while mirrors are enabled', async () => {
    expect(host.cron.names[0]).toBe('update_mirrors');
    await host.cron.run(SYSTEM, 'update_mirrors');
    await host.cron.idle();
    expect((await row('update_mirrors')).last_message).toBe('queued 0 pull mirror and 0 push mirror syncs');
    const off = await openTestHost({ mirror: { ENABLED: false } });
    try {
      expect(off.host.cron.names).not.toContain('update_mirrors');
      await expect(off.host.cron.run(SYSTEM, 'update_mirrors')).rejects.toThrow(/couldn't be found/);
    } finally {
      await off.cleanup();
    }
  });

  it('close stops a running task and leaves nothing behind', async () => {
    host.cron.start();
    await host.cron.run(SYSTEM, 'check_repo_stats');
    await host.close();
    // Closing again (the harness does) is harmless; nothing is left running to keep the process alive.
    await host.close();
  });
});
