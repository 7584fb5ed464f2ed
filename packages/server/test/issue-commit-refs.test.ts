/**
 * Commits that mention issues, pushed with the real git client over HTTP: each referenced issue gets one
 * `commit_ref` event (not two when the commit reaches a second branch); on the default branch `fixes #N`
 * closes and `reopens #N` reopens for a pusher with write access, the close event naming the commit; elsewhere,
 * and for issues the pusher cannot write to, keywords only reference.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

describe('issue references in pushed commits', () => {
  let s: TestServer;
  let scratch: string;
  let gitEnv: NodeJS.ProcessEnv;
  let name: string;
  let token: string;
  let h: Record<string, string>;

  function git(args: string[], cwd: string): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
        else resolve(String(stdout));
      });
    });
  }

  async function commit(dir: string, message: string): Promise<string> {
    await writeFile(path.join(dir, 'file.txt'), `${message}\n${Math.random()}\n`);
    await git(['add', 'file.txt'], dir);
    await git(['commit', '-q', '-m', message], dir);
    return (await git(['rev-parse', 'HEAD'], dir)).trim();
  }

  async function timeline(full: string, index: number): Promise<{ type: string; ref_commit_sha?: string; body?: string }[]> {
    const res = await s.fetch(`/api/v1/repos/${full}/issues/${index}/timeline`, { headers: h });
    expect(res.status).toBe(200);
    return json(res);
  }

  async function state(full: string, index: number): Promise<string> {
    return (await json(await s.fetch(`/api/v1/repos/${full}/issues/${index}`, { headers: h }))).state;
  }

  /** Waits for the after-push work (it runs once the push committed). */
  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('timed out');
  }

  beforeAll(async () => {
    s = await startTestServer();
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-commit-refs-'));
    const home = path.join(scratch, 'home');
    await mkdir(home);
    await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n');
    gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    name = uniq('cr');
    await createUser(s.host, name);
    token = await createToken(s.host, name);
    h = tokenHeader(token);
  });
  afterAll(async () => {
    await s?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  test('references, closes and reopens from the default branch; only references from another branch', async () => {
    const repo = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, h))).status).toBe(201);
    const full = `${name}/${repo}`;
    for (const title of ['one', 'two', 'three']) {
      expect((await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title }, h))).status).toBe(201);
    }
    const dir = await mkdtemp(path.join(scratch, 'wc-'));
    await git(['init', '-q', '-b', 'main'], dir);
    await git(['remote', 'add', 'origin', `http://${name}:${token}@127.0.0.1:${new URL(s.url).port}/${full}.git`], dir);

    const fixing = await commit(dir, 'Fixes #1 and mentions #2');
    await git(['push', '-q', 'origin', 'main'], dir);
    await eventually(async () => (await state(full, 1)) === 'closed');
    const first = await timeline(full, 1);
    expect(first.filter((e) => e.type === 'commit_ref').map((e) => e.ref_commit_sha)).toEqual([fixing]);
    expect(first.filter((e) => e.type === 'close').map((e) => e.ref_commit_sha)).toEqual([fixing]);
    expect(await state(full, 2)).toBe('open');
    // The repository's counter follows the close (as the milestone's and labels' would).
    expect(await json(await s.fetch(`/api/v1/repos/${full}`, { headers: h }))).toMatchObject({ open_issues_count: 2 });
    expect((await timeline(full, 2)).filter((e) => e.type === 'commit_ref').map((e) => e.ref_commit_sha)).toEqual([fixing]);

    // Another branch: the keyword only references.
    await git(['checkout', '-q', '-b', 'topic'], dir);
    const onTopic = await commit(dir, 'closes #3');
    await git(['push', '-q', 'origin', 'topic'], dir);
    await eventually(async () => (await timeline(full, 3)).some((e) => e.type === 'commit_ref'));
    expect(await state(full, 3)).toBe('open');

    // The same commit reaching main later is not referenced twice; a new one reopens #1.
    await git(['checkout', '-q', 'main'], dir);
    await git(['merge', '-q', '--ff-only', 'topic'], dir);
    const reopening = await commit(dir, 'reopens #1');
    await git(['push', '-q', 'origin', 'main'], dir);
    await eventually(async () => (await state(full, 1)) === 'open');
    await eventually(async () => (await state(full, 3)) === 'closed');
    expect((await timeline(full, 3)).filter((e) => e.type === 'commit_ref').map((e) => e.ref_commit_sha)).toEqual([onTopic]);
    expect((await timeline(full, 1)).filter((e) => e.type === 'reopen').map((e) => e.ref_commit_sha)).toEqual([reopening]);
    expect(await json(await s.fetch(`/api/v1/repos/${full}`, { headers: h }))).toMatchObject({ open_issues_count: 2 });
  });
});
