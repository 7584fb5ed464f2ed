/**
 * `repohost admin repo migrate`: starts a migration through the same service as the API, runs its job and shows
 * the job's progress as a bar on stderr; refusals come back as errors.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM } from '@repohost/core';
import { TEST_GIT } from '@repohost/test-support';
import { progressLine } from '../src/commands/admin-repo.js';
import { useCliWorkspace } from './cli-workspace';

describe.skipIf(TEST_GIT === 'memory')('repohost admin repo migrate', () => {
  const ws = useCliWorkspace('repohost-cli-repo-', { FORGEJO__SECURITY__IMPORT_LOCAL_PATHS: 'true' });
  const cli = ws.cli;

  it('migrates a local repository with a progress bar; a refused one is an error', async () => {
    const source = path.join(ws.work, 'src');
    const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: ws.work, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' };
    execFileSync('git', ['init', '-q', '-b', 'main', source], { env: gitEnv });
    await writeFile(path.join(source, 'f.txt'), 'x\n');
    execFileSync('git', ['add', 'f.txt'], { cwd: source, env: gitEnv });
    execFileSync('git', ['commit', '-q', '-m', 'x'], { cwd: source, env: gitEnv });
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: source, env: gitEnv }).toString().trim();

    const created = await cli(['admin', 'user', 'create', '--username', 'root', '--password', 'secret-pass-1', '--email', 'root@example.com', '--admin']);
    expect(created.code, created.err).toBe(0);
    const run = await cli(['admin', 'repo', 'migrate', '--clone-addr', source, '--owner', 'root', '--name', 'copy']);
    expect(run.err).toContain('finishing');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toBe('Migrated root/copy\n');

    await ws.withHost(async (host) => {
      const repo = await host.repos.resolve(SYSTEM, 'root', 'copy');
      expect(repo.repo).toMatchObject({ status: 0, is_empty: 0, default_branch: 'main', is_mirror: 0 });
      expect((await host.git.readRefs({ owner: 'root', name: 'copy' }, ['refs/heads/main'])).get('refs/heads/main')).toBe(head);
    });

    const taken = await cli(['admin', 'repo', 'migrate', '--clone-addr', source, '--owner', 'root', '--name', 'copy']);
    expect(taken.code).toBe(1);
    expect(taken.err).toContain('The repository with the same name already exists.');
    const missing = await cli(['admin', 'repo', 'migrate', '--owner', 'root', '--name', 'x']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('--clone-addr');
  });

  it('draws the bar from the job progress', () => {
    expect(progressLine({ progress_done: 5, progress_total: 10, progress_message: 'cloning: Receiving objects', status: 'running' })).toBe(
      `[${'#'.repeat(15)}${' '.repeat(15)}]  50% cloning: Receiving objects (5/10)`,
    );
    expect(progressLine({ progress_done: 0, progress_total: 0, progress_message: '', status: 'queued' })).toBe(`[${' '.repeat(30)}] queued`);
  });
});
