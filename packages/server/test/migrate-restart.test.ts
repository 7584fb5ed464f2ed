/**
 * Migrations survive a restart: a migration whose process stopped midway (its job queued again, half-made
 * storage left on disk) is finished by the next process from nothing, and one whose job ended without finishing
 * is removed when the host opens, so no half-made repository stays.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RepoHost, SYSTEM, loadSettings, userActor, type Settings } from '@repohost/core';
import { MigrationsStore } from '@repohost/core/internal';
import { TEST_GIT, createUser, testDatabaseEnv } from '@repohost/test-support';

describe.skipIf(TEST_GIT === 'memory')('migrations across a restart', () => {
  let work: string;
  let dbEnv: Awaited<ReturnType<typeof testDatabaseEnv>>;
  let settings: Settings;
  let source: string;
  let head: string;

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'repohost-migrate-restart-'));
    dbEnv = await testDatabaseEnv();
    settings = loadSettings({ workPath: work, env: dbEnv.env, overrides: { security: { IMPORT_LOCAL_PATHS: true, SECRET_KEY: 'migrate-restart-key' } } });
    source = path.join(work, 'source');
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: work, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
    execFileSync('git', ['init', '-q', '-b', 'main', source], { env });
    await writeFile(path.join(source, 'f.txt'), 'x\n');
    execFileSync('git', ['add', 'f.txt'], { cwd: source, env });
    execFileSync('git', ['commit', '-q', '-m', 'x'], { cwd: source, env });
    head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: source, env }).toString().trim();
  });
  afterEach(async () => {
    await dbEnv.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  test('an interrupted migration is finished by the next process, starting over', async () => {
    const first = await RepoHost.open({ settings });
    const admin = await createUser(first, 'root', { admin: true });
    // Not serving: no worker takes the job before the "crash".
    const started = await first.migrations.start(userActor(admin), { clone_addr: source, repo_name: 'copy' });
    const key = { owner: 'root', name: 'copy' };
    // What a clone cut short leaves: storage without the remote's refs.
    await first.git.create(key, { objectFormat: 'sha1', defaultBranch: 'main' });
    await first.close();

    const second = await RepoHost.open({ settings });
    try {
      expect(second.reconciled.abandonedMigrations).toEqual([]);
      await second.jobs.runDue();
      const job = await second.jobs.get(started.job.id);
      expect(job).toMatchObject({ status: 'done', error: '' });
      const repo = await second.repos.resolve(SYSTEM, 'root', 'copy');
      expect(repo.repo).toMatchObject({ status: 0, is_empty: 0, default_branch: 'main', original_url: `file://${source}` });
      expect((await second.git.readRefs(key, ['refs/heads/main'])).get('refs/heads/main')).toBe(head);
      expect(await second.migrations.jobOf(repo.repo.id)).toBeUndefined();
    } finally {
      await second.close();
    }
  });

  test('a migration whose job ended without finishing is removed at start-up, storage and all', async () => {
    const first = await RepoHost.open({ settings });
    const admin = await createUser(first, 'root', { admin: true });
    const started = await first.migrations.start(userActor(admin), { clone_addr: source, repo_name: 'gone' });
    const key = { owner: 'root', name: 'gone' };
    await first.git.create(key, { objectFormat: 'sha1', defaultBranch: 'main' });
    // The job row is gone (pruned, or lost): nothing will ever finish this migration.
    const ctx = (first as unknown as { ctx: { store<T>(c: new (...a: never[]) => T): T } }).ctx;
    await ctx.store(MigrationsStore).setJob(started.access.repo.id, started.job.id + 1000);
    await first.close();

    const second = await RepoHost.open({ settings });
    try {
      expect(second.reconciled.abandonedMigrations).toEqual([started.access.repo.id]);
      await expect(second.repos.resolve(SYSTEM, 'root', 'gone')).rejects.toThrow();
      expect(await second.git.exists(key)).toBe(false);
      expect((await second.users.resolve(SYSTEM, 'root')).num_repos).toBe(0);
    } finally {
      await second.close();
    }
  });
});
