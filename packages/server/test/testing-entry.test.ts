/**
 * `@repohost/server/testing` as another project's suite uses it: one call gives a started in-memory forge with
 * an administrator and a token; the real git client clones and pushes against it; two forges side by side share
 * nothing; closing one frees its port.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startTestForge, type TestForge } from '@repohost/server/testing';
import { TEST_DB } from '@repohost/test-support';

// The forge keeps its own database in memory: one pass is enough.
describe.skipIf(TEST_DB !== 'sqlite')('@repohost/server/testing', () => {
  const opened: TestForge[] = [];
  const scratch: string[] = [];

  function git(args: string[], cwd: string): Promise<string> {
    const env = { PATH: process.env.PATH, HOME: cwd, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    return new Promise((resolve, reject) => {
      execFile('git', args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(String(stdout))));
    });
  }

  afterAll(async () => {
    for (const forge of opened) await forge.close();
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  });

  test('one call: a forge with an admin and a token; the API and git over HTTP work against it', async () => {
    const forge = await startTestForge();
    opened.push(forge);
    expect(forge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const auth = { authorization: `token ${forge.admin.token}`, 'content-type': 'application/json' };
    const me = await fetch(`${forge.url}api/v1/user`, { headers: auth });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ login: forge.admin.username, is_admin: true });
    const created = await fetch(`${forge.url}api/v1/user/repos`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'demo', auto_init: true }) });
    expect(created.status).toBe(201);

    const dir = await mkdtemp(path.join(tmpdir(), 'repohost-testing-entry-'));
    scratch.push(dir);
    const remote = forge.url.replace('http://', `http://${forge.admin.username}:${forge.admin.password}@`) + `${forge.admin.username}/demo.git`;
    await git(['clone', '-q', remote, 'demo'], dir);
    const work = path.join(dir, 'demo');
    await writeFile(path.join(work, 'hello.txt'), 'hello\n');
    await git(['add', 'hello.txt'], work);
    await git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'hello'], work);
    await git(['push', '-q', 'origin', 'main'], work);
    const file = await fetch(`${forge.url}api/v1/repos/${forge.admin.username}/demo/contents/hello.txt`, { headers: auth });
    expect(file.status).toBe(200);
    expect(Buffer.from(((await file.json()) as { content: string }).content, 'base64').toString()).toBe('hello\n');
  });

  test('forges side by side share nothing; a closed one stops answering', async () => {
    const [a, b] = await Promise.all([startTestForge(), startTestForge({ admin: { username: 'other-admin' } })]);
    opened.push(b);
    const auth = (forge: TestForge) => ({ authorization: `token ${forge.admin.token}`, 'content-type': 'application/json' });
    expect((await fetch(`${a.url}api/v1/user/repos`, { method: 'POST', headers: auth(a), body: JSON.stringify({ name: 'only-in-a' }) })).status).toBe(201);
    expect((await fetch(`${b.url}api/v1/repos/forge-admin/only-in-a`, { headers: auth(b) })).status).toBe(404);
    // A's token means nothing to B.
    expect((await fetch(`${b.url}api/v1/user`, { headers: auth(a) })).status).toBe(401);
    await a.close();
    await expect(fetch(`${a.url}api/v1/version`)).rejects.toThrow();
    expect((await fetch(`${b.url}api/v1/version`)).status).toBe(200);
  });
});
