/**
 * Each recurring task does its work: counters that drifted are corrected, old webhook deliveries and activity go,
 * inactive accounts are deleted (not those that own something), repositories are checked and packed, a removed
 * hook file comes back, and repositories whose storage is missing are made again or deleted.
 */
import { access, readFile, readdir, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM, openStorage, userActor, type NativeGitBackend, type RepoHost, type SettingsOverrides, type Storage, type User } from '@repohost/core';
import { TEST_GIT, createUser, openTestHost, type TestHost } from '@repohost/test-support';

const nowUnix = () => Math.floor(Date.now() / 1000);

describe('cron tasks at work', () => {
  let t: TestHost;
  let host: RepoHost;
  let raw: Storage;
  let alice: User;
  let bob: User;

  async function open(overrides: SettingsOverrides = {}): Promise<void> {
    t = await openTestHost({ ...overrides, database: { PATH: 'tasks.db' } });
    host = t.host;
    raw = await openStorage(host.settings.database);
    alice = await createUser(host, 'alice');
    bob = await createUser(host, 'bob');
  }
  beforeEach(async () => open());
  afterEach(async () => {
    await raw.close();
    await t.cleanup();
  });

  /** Runs a task by hand and returns its recorded outcome. */
  async function runTask(name: string): Promise<{ last_error: string; last_message: string }> {
    await host.cron.run(SYSTEM, name);
    await host.cron.idle();
    const state = (await host.cron.state(name))!;
    return { last_error: state.last_error, last_message: state.last_message };
  }

  /** A row with its numeric columns as numbers (PostgreSQL returns bigint as text). */
  const numeric = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]));
  const repoRow = async (id: number) => numeric(await raw.db.selectFrom('repository').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  const userRow = async (id: number) => {
    const row = await raw.db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
    return row && numeric(row);
  };

  it('check_repo_stats sets drifted counters back to what they count', async () => {
    const repo = await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
    await host.social.star(userActor(bob), repo);
    await host.social.follow(userActor(bob), alice);
    await host.issues.create(userActor(alice), repo, { title: 'one' });
    await host.issues.create(userActor(alice), repo, { title: 'two', closed: true });
    expect(await runTask('check_repo_stats')).toEqual({ last_error: '', last_message: 'all counters agree' });

    // Drift, on purpose.
    await raw.db.updateTable('repository').set({ num_stars: 7, num_watches: 0, num_issues: 9, num_closed_issues: 5, num_forks: 3 }).where('id', '=', repo.repo.id).execute();
    await raw.db.updateTable('user').set({ num_followers: 4, num_repos: 0 }).where('id', '=', alice.id).execute();
    await raw.db.updateTable('user').set({ num_stars: 0, num_following: 2 }).where('id', '=', bob.id).execute();
    await raw.db.updateTable('issue').set({ num_comments: 5 }).where('repo_id', '=', repo.repo.id).execute();
    const outcome = await runTask('check_repo_stats');
    expect(outcome.last_error).toBe('');
    expect(outcome.last_message).toMatch(/^corrected 11 counters \(repository\.num_stars ×1, /);

    expect(await repoRow(repo.repo.id)).toMatchObject({ num_stars: 1, num_watches: 1, num_issues: 2, num_closed_issues: 1, num_forks: 0 });
    expect(await userRow(alice.id)).toMatchObject({ num_followers: 1, num_repos: 1 });
    expect(await userRow(bob.id)).toMatchObject({ num_stars: 1, num_following: 1 });
    const issues = await raw.db.selectFrom('issue').select('num_comments').where('repo_id', '=', repo.repo.id).execute();
    expect(issues.map((i) => Number(i.num_comments))).toEqual([0, 0]);
    // What the API shows follows.
    expect((await host.repos.resolve(SYSTEM, 'alice', 'demo')).repo).toMatchObject({ num_stars: 1, num_issues: 2 });
    expect(await runTask('check_repo_stats')).toEqual({ last_error: '', last_message: 'all counters agree' });
  });

  it('delete_old_actions removes activity older than OLDER_THAN and keeps the rest', async () => {
    await host.repos.create(userActor(alice), { name: 'demo' });
    const count = async () => Number((await raw.db.selectFrom('action').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const all = await count();
    expect(all).toBeGreaterThan(0);
    const oldest = (await raw.db.selectFrom('action').select('id').orderBy('id').executeTakeFirstOrThrow()).id as number;
    await raw.db.updateTable('action').set({ created_unix: nowUnix() - 400 * 86400 }).where('id', '=', oldest).execute();
    expect((await runTask('delete_old_actions')).last_message).toBe('deleted 1 activity entries');
    expect(await count()).toBe(all - 1);
  });

  it('cleanup_hook_task_table drops deliveries older than OLDER_THAN, and delivered tasks left without any', async () => {
    const now = nowUnix();
    const hook = await raw.db
      .insertInto('webhook')
      .values({ repo_id: 0, owner_id: 0, is_system_webhook: 1, url: 'http://example.invalid/', http_method: 'POST', content_type: 1, secret: '', events: '{}', is_active: 0, type: 'gitea', meta: '', header_authorization_encrypted: '', last_status: 0, created_unix: now, updated_unix: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const task = (created: number, delivered: number) =>
      raw.db
        .insertInto('hook_task')
        .values({ hook_id: hook.id, repo_id: 0, uuid: `u-${created}-${Math.random()}`, event_type: 'push', payload_content: '{}', is_delivered: delivered, attempts: 1, next_attempt_unix: 0, created_unix: created })
        .returning('id')
        .executeTakeFirstOrThrow();
    const delivery = (taskId: number, when: number) =>
      raw.db
        .insertInto('hook_delivery')
        .values({ hook_id: hook.id, task_id: taskId, is_redelivery: 0, is_succeed: 1, request_url: '', request_method: 'POST', request_headers: '{}', request_body: '', response_status: 200, response_headers: '{}', response_body: '', duration_ms: 1, error: '', delivered_unix: when })
        .execute();
    const old = await task(now - 30 * 86400, 1);
    await delivery(old.id, now - 30 * 86400);
    const recent = await task(now - 60, 1);
    await delivery(recent.id, now - 60);
    const pending = await task(now - 30 * 86400, 0);
    expect((await runTask('cleanup_hook_task_table')).last_message).toBe('deleted 1 webhook deliveries older than 168h');
    const tasks = (await raw.db.selectFrom('hook_task').select('id').execute()).map((r) => r.id);
    expect(tasks.sort()).toEqual([recent.id, pending.id].sort());
    expect((await raw.db.selectFrom('hook_delivery').select('task_id').execute()).map((r) => r.task_id)).toEqual([recent.id]);
  });

  it('cleanup_hook_task_table with PerWebhook keeps the newest NUMBER_TO_KEEP deliveries of each hook', async () => {
    await raw.close();
    await t.cleanup();
    await open({ 'cron.cleanup_hook_task_table': { CLEANUP_TYPE: 'PerWebhook', NUMBER_TO_KEEP: 2 } });
    const now = nowUnix();
    const hookIds: number[] = [];
    for (let h = 0; h < 2; h++) {
      const hook = await raw.db
        .insertInto('webhook')
        .values({ repo_id: 0, owner_id: 0, is_system_webhook: 1, url: 'http://example.invalid/', http_method: 'POST', content_type: 1, secret: '', events: '{}', is_active: 0, type: 'gitea', meta: '', header_authorization_encrypted: '', last_status: 0, created_unix: now, updated_unix: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      hookIds.push(hook.id);
      for (let i = 0; i < (h === 0 ? 5 : 1); i++) {
        const task = await raw.db
          .insertInto('hook_task')
          .values({ hook_id: hook.id, repo_id: 0, uuid: `u-${h}-${i}`, event_type: 'push', payload_content: '{}', is_delivered: 1, attempts: 1, next_attempt_unix: 0, created_unix: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await raw.db
          .insertInto('hook_delivery')
          .values({ hook_id: hook.id, task_id: task.id, is_redelivery: 0, is_succeed: 1, request_url: '', request_method: 'POST', request_headers: '{}', request_body: '', response_status: 200, response_headers: '{}', response_body: '', duration_ms: 1, error: '', delivered_unix: now })
          .execute();
      }
    }
    expect((await runTask('cleanup_hook_task_table')).last_message).toBe('deleted 3 webhook deliveries beyond 2 per webhook');
    const left = await raw.db.selectFrom('hook_delivery').select(['hook_id']).execute();
    expect(left.filter((d) => d.hook_id === hookIds[0]).length).toBe(2);
    expect(left.filter((d) => d.hook_id === hookIds[1]).length).toBe(1);
    expect(Number((await raw.db.selectFrom('hook_task').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(3);
  });

  it('delete_inactive_accounts deletes accounts never activated, older than OLDER_THAN, unless they own something', async () => {
    const stale = await createUser(host, 'stale');
    const owning = await createUser(host, 'owning');
    const fresh = await createUser(host, 'fresh');
    await host.repos.create(userActor(owning), { name: 'mine' });
    const old = nowUnix() - 86400;
    await raw.db.updateTable('user').set({ is_active: 0, created_unix: old }).where('id', 'in', [stale.id, owning.id]).execute();
    // Inactive but younger than OLDER_THAN (3h): kept.
    await raw.db.updateTable('user').set({ is_active: 0 }).where('id', '=', fresh.id).execute();
    expect((await runTask('delete_inactive_accounts')).last_message).toBe('deleted 1 inactive accounts; kept 1 that still own repositories or belong to organizations');
    expect(await userRow(stale.id)).toBeUndefined();
    expect(await userRow(owning.id)).toBeDefined();
    expect(await userRow(fresh.id)).toBeDefined();
    expect(await userRow(alice.id)).toBeDefined();
  });

  describe.skipIf(TEST_GIT === 'memory')('on repositories stored on disk', () => {
    const folder = (owner: string, name: string) => (host.git as NativeGitBackend).pathOf({ owner, name });

    it('repo_health_check runs git fsck on every repository and names the broken ones', async () => {
      await host.repos.create(userActor(alice), { name: 'good', auto_init: true });
      const broken = await host.repos.create(userActor(alice), { name: 'broken', auto_init: true });
      expect(await runTask('repo_health_check')).toEqual({ last_error: '', last_message: 'checked 2 repositories' });
      // Lose the commit the branch points at.
      const head = (await host.git.readRefs({ owner: 'alice', name: 'broken' }, [`refs/heads/${broken.repo.default_branch}`])).values().next().value!;
      await unlink(path.join(folder('alice', 'broken'), 'objects', head.slice(0, 2), head.slice(2)));
      const outcome = await runTask('repo_health_check');
      expect(outcome.last_error).toBe('');
      expect(outcome.last_message).toMatch(/^checked 2 repositories; 1 failed: alice\/broken: /);
    });

    it('git_gc_repos packs loose objects and records the new size', async () => {
      const repo = await host.repos.create(userActor(alice), { name: 'loose', auto_init: true });
      const objects = path.join(folder('alice', 'loose'), 'objects');
      const loose = async () => (await readdir(objects)).filter((d) => /^[0-9a-f]{2}$/.test(d)).length;
      expect(await loose()).toBeGreaterThan(0);
      await raw.db.updateTable('repository').set({ size: 0 }).where('id', '=', repo.repo.id).execute();
      expect(await runTask('git_gc_repos')).toEqual({ last_error: '', last_message: 'collected garbage in 1 repositories' });
      expect(await loose()).toBe(0);
      expect((await readdir(path.join(objects, 'pack'))).some((f) => f.endsWith('.pack'))).toBe(true);
      expect(Number((await repoRow(repo.repo.id)).size)).toBeGreaterThan(0);
    });

    it('resync_all_hooks writes the push hooks again after one was removed', async () => {
      const hooks = path.join(host.settings.repository.ROOT, '.hooks');
      expect(await runTask('resync_all_hooks')).toEqual({ last_error: '', last_message: 'server hooks written' });
      const original = await readFile(path.join(hooks, 'pre-receive'), 'utf8');
      await unlink(path.join(hooks, 'pre-receive'));
      await runTask('resync_all_hooks');
      expect(await readFile(path.join(hooks, 'pre-receive'), 'utf8')).toBe(original);
      expect((await stat(path.join(hooks, 'pre-receive'))).mode & 0o777).toBe(0o700);
      await access(path.join(hooks, 'push-check.cjs'));
    });

    it('reinit_missing_repos makes an empty repository where the storage went missing', async () => {
      const repo = await host.repos.create(userActor(alice), { name: 'vanished', auto_init: true });
      await host.repos.create(userActor(alice), { name: 'present', auto_init: true });
      await rm(folder('alice', 'vanished'), { recursive: true });
      expect(await runTask('reinit_missing_repos')).toEqual({ last_error: '', last_message: 'reinitialized 1 of 1 missing repositories' });
      expect(await host.git.exists({ owner: 'alice', name: 'vanished' })).toBe(true);
      expect(await host.git.isEmpty({ owner: 'alice', name: 'vanished' })).toBe(true);
      expect(await repoRow(repo.repo.id)).toMatchObject({ is_empty: 1 });
      expect(await runTask('reinit_missing_repos')).toEqual({ last_error: '', last_message: 'reinitialized 0 of 0 missing repositories' });
    });

    it('delete_missing_repos deletes repositories whose storage went missing', async () => {
      const repo = await host.repos.create(userActor(alice), { name: 'vanished', auto_init: true });
      const kept = await host.repos.create(userActor(alice), { name: 'present', auto_init: true });
      await rm(folder('alice', 'vanished'), { recursive: true });
      expect(await runTask('delete_missing_repos')).toEqual({ last_error: '', last_message: 'deleted 1 of 1 missing repositories' });
      expect(await raw.db.selectFrom('repository').select('id').where('id', '=', repo.repo.id).executeTakeFirst()).toBeUndefined();
      expect(await raw.db.selectFrom('repository').select('id').where('id', '=', kept.repo.id).executeTakeFirst()).toBeDefined();
      expect(await userRow(alice.id)).toMatchObject({ num_repos: 1 });
    });
  });
});
