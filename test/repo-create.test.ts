/**
 * Creating repositories as a Forgejo user does: auto_init from the built-in templates, an administrator creating
 * for someone else, generating from a template repository; and the rules every push meets. Checked with the real
 * `git` client and the API.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabelSchema, RepositorySchema, SYSTEM, matchesSchema } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';

let ts: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let alice: string;
let bob: string;
let admin: string;
let port: number;

function git(args: string[], cwd = scratch): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function gitOk(args: string[], cwd = scratch) {
  const result = await git(args, cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed:\n${result.stderr}`);
  return result;
}

const url = (repoPath: string, user: string, token: string) => `http://${user}:${token}@127.0.0.1:${port}/${repoPath}.git`;

let dirs = 0;
const freshDir = (label: string) => path.join(scratch, `${label}-${++dirs}`);

async function post(route: string, token: string, body: unknown) {
  const res = await ts.fetch(`/api/v1${route}`, jsonInit('POST', body, tokenHeader(token)));
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

beforeAll(async () => {
  ts = await startTestServer();
  port = Number(new URL(ts.url).port);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-create-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Tester\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  await createUser(ts.host, 'alice');
  await createUser(ts.host, 'bob');
  await createUser(ts.host, 'root', { admin: true });
  alice = await createToken(ts.host, 'alice');
  bob = await createToken(ts.host, 'bob');
  admin = await createToken(ts.host, 'root');
});

afterAll(async () => {
  await ts?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('creating a repository from the built-in templates', () => {
  it('commits README, .gitignore (C,C++) and the MIT license, creates the Default labels, and the creator watches it', async () => {
    const created = await post('/user/repos', alice, { name: 'seeded', description: 'A seed', auto_init: true, gitignores: 'C,C++', license: 'MIT', issue_labels: 'Default' });
    expect(created.status).toBe(201);
    expect(matchesSchema(RepositorySchema, created.body)).toBe(true);
    expect(created.body).toMatchObject({ empty: false, watchers_count: 1, default_branch: 'main' });

    const work = freshDir('seeded');
    await gitOk(['clone', '-q', url('alice/seeded', 'alice', alice), work]);
    expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain('# seeded');
    const ignore = await readFile(path.join(work, '.gitignore'), 'utf8');
    expect(ignore).toContain('# ---> C\n');
    expect(ignore).toContain('# ---> C++\n');
    expect(ignore).toMatch(/\*\.o\b/);
    const license = await readFile(path.join(work, 'LICENSE'), 'utf8');
    expect(license).toContain('MIT License');
    expect(license).toContain(`Copyright (c) ${new Date().getUTCFullYear()} alice`);
    expect((await gitOk(['log', '--format=%s'], work)).stdout.trim()).toBe('Initial commit');

    const labels = await ts.fetch('/api/v1/repos/alice/seeded/labels', { headers: tokenHeader(alice) });
    expect(labels.status).toBe(200);
    expect(labels.headers.get('x-total-count')).toBe('7');
    const list = (await labels.json()) as unknown[];
    for (const label of list) expect(matchesSchema(LabelSchema, label)).toBe(true);
    expect(list.map((l) => (l as { name: string }).name)).toContain('bug');
  });

  it('refuses unknown templates before creating anything: gitignore, license and label set 422, readme 400', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ auto_init: true, gitignores: 'C,NoSuchLanguage' }, 422],
      [{ auto_init: true, license: 'NOT-A-LICENSE' }, 422],
      [{ issue_labels: 'Nope' }, 422],
      [{ auto_init: true, readme: 'Fancy' }, 400],
    ];
    for (const [options, status] of cases) {
      const res = await post('/user/repos', alice, { name: 'refused', ...options });
      expect(res.status, JSON.stringify(options)).toBe(status);
      expect(typeof res.body?.message).toBe('string');
    }
    expect((await ts.fetch('/api/v1/repos/alice/refused', { headers: tokenHeader(alice) })).status).toBe(404);
    expect(await ts.host.git.exists({ owner: 'alice', name: 'refused' })).toBe(false);
  });

  it('initializes a sha256 repository that git clones and pushes to', async () => {
    const created = await post('/user/repos', alice, { name: 'wide', auto_init: true, object_format_name: 'sha256', license: 'Apache-2.0' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object_format_name: 'sha256', empty: false });
    const work = freshDir('wide');
    await gitOk(['clone', '-q', url('alice/wide', 'alice', alice), work]);
    expect((await gitOk(['rev-parse', 'HEAD'], work)).stdout.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(await readFile(path.join(work, 'LICENSE'), 'utf8')).toContain('Apache License');
    await writeFile(path.join(work, 'more.txt'), 'more\n');
    await gitOk(['add', '.'], work);
    await gitOk(['commit', '-q', '-m', 'more'], work);
    await gitOk(['push', '-q', 'origin', 'main'], work);
  });

  it('keeps exactly one of two concurrent creates of the same name', async () => {
    const results = await Promise.all([0, 1, 2].map(() => post('/user/repos', alice, { name: 'racer', auto_init: true })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('POST /admin/users/{username}/repos', () => {
  it('lets a site administrator create a repository owned by a user; others are refused', async () => {
    const created = await post('/admin/users/bob/repos', admin, { name: 'from-admin', private: true, auto_init: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ full_name: 'bob/from-admin', private: true });
    expect((await ts.fetch('/api/v1/repos/bob/from-admin', { headers: tokenHeader(bob) })).status).toBe(200);
    expect((await post('/admin/users/bob/repos', alice, { name: 'sneaky' })).status).toBe(403);
    expect((await post('/admin/users/nobody-here/repos', admin, { name: 'x' })).status).toBe(404);
    expect((await post('/admin/users/bob/repos', admin, { name: 'from-admin' })).status).toBe(409);
    const anonymous = await ts.fetch('/api/v1/admin/users/bob/repos', jsonInit('POST', { name: 'anon' }));
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /repos/{template_owner}/{template_repo}/generate', () => {
  it('copies the files (as one new commit), topics and labels of a template repository', async () => {
    expect((await post('/user/repos', alice, { name: 'tpl', auto_init: true, gitignores: 'Go', issue_labels: 'Advanced' })).status).toBe(201);
    // Not a template yet: refused.
    expect((await post('/repos/alice/tpl/generate', alice, { owner: 'alice', name: 'early', git_content: true })).status).toBe(422);
    const edit = await ts.fetch('/api/v1/repos/alice/tpl', jsonInit('PATCH', { template: true }, tokenHeader(alice)));
    expect(edit.status).toBe(200);
    const topics = await ts.fetch('/api/v1/repos/alice/tpl/topics', jsonInit('PUT', { topics: ['golang', 'starter'] }, tokenHeader(alice)));
    expect(topics.status).toBe(204);
    // Nothing selected: refused.
    expect((await post('/repos/alice/tpl/generate', alice, { owner: 'alice', name: 'nothing' })).status).toBe(422);

    const generated = await post('/repos/alice/tpl/generate', bob, { owner: 'bob', name: 'from-tpl', git_content: true, topics: true, labels: true });
    expect(generated.status).toBe(201);
    expect(matchesSchema(RepositorySchema, generated.body)).toBe(true);
    expect(generated.body).toMatchObject({ full_name: 'bob/from-tpl', template: false, empty: false, topics: ['golang', 'starter'] });

    const work = freshDir('from-tpl');
    await gitOk(['clone', '-q', url('bob/from-tpl', 'bob', bob), work]);
    expect(await readFile(path.join(work, '.gitignore'), 'utf8')).toContain('# ---> Go');
    expect((await gitOk(['rev-list', '--count', 'HEAD'], work)).stdout.trim()).toBe('1');
    const labels = await ts.fetch('/api/v1/repos/bob/from-tpl/labels?limit=50', { headers: tokenHeader(bob) });
    expect(labels.headers.get('x-total-count')).toBe('18');

    // For someone else: only administrators; a missing owner is 404.
    expect((await post('/repos/alice/tpl/generate', bob, { owner: 'alice', name: 'for-alice', topics: true })).status).toBe(403);
    expect((await post('/repos/alice/tpl/generate', bob, { owner: 'ghost-owner', name: 'x', topics: true })).status).toBe(404);
  });

  it('hides private templates from those who may not read them', async () => {
    expect((await post('/user/repos', alice, { name: 'secret-tpl', private: true, template: true, auto_init: true })).status).toBe(201);
    expect((await post('/repos/alice/secret-tpl/generate', bob, { owner: 'bob', name: 'stolen', git_content: true })).status).toBe(404);
  });
});

describe('pushes', () => {
  it('refuses to delete the default branch, allows deleting others and force pushes', async () => {
    expect((await post('/user/repos', alice, { name: 'rules', auto_init: true })).status).toBe(201);
    const work = freshDir('rules');
    await gitOk(['clone', '-q', url('alice/rules', 'alice', alice), work]);
    await gitOk(['push', '-q', 'origin', 'main:side'], work);
    const refused = await git(['push', 'origin', ':main'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('branch main is the default branch and cannot be deleted');
    await gitOk(['push', '-q', 'origin', ':side'], work);
    await gitOk(['commit', '-q', '--amend', '-m', 'rewritten'], work);
    await gitOk(['push', '-q', '--force', 'origin', 'main'], work);
    const remote = (await gitOk(['ls-remote', url('alice/rules', 'alice', alice)])).stdout;
    expect(remote).toContain('refs/heads/main');
    expect(remote).not.toContain('refs/heads/side');
    // Every ref change is on record, pusher and ids included; the refused deletion is not.
    const pushes = await ts.host.repos.latestPushes(await ts.host.repos.resolve(SYSTEM, 'alice', 'rules'));
    const alicesId = (await ts.host.users.resolve(SYSTEM, 'alice')).id;
    expect(pushes.map((p) => [p.ref_name, /^0+$/.test(p.old_commit_id), /^0+$/.test(p.new_commit_id)])).toEqual([
      ['refs/heads/main', false, false],
      ['refs/heads/side', false, true],
      ['refs/heads/side', true, false],
    ]);
    expect(pushes.every((p) => p.pusher_id === alicesId)).toBe(true);
  });

  it('refuses pushes to an archived repository with a message git shows, and accepts them after unarchiving', async () => {
    expect((await post('/user/repos', alice, { name: 'frozen', auto_init: true })).status).toBe(201);
    const work = freshDir('frozen');
    await gitOk(['clone', '-q', url('alice/frozen', 'alice', alice), work]);
    const archive = await ts.fetch('/api/v1/repos/alice/frozen', jsonInit('PATCH', { archived: true }, tokenHeader(alice)));
    expect(archive.status).toBe(200);
    await gitOk(['commit', '-q', '--allow-empty', '-m', 'late'], work);
    const refused = await git(['push', 'origin', 'main'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/archived/);
    // Reading stays possible.
    await gitOk(['fetch', '-q', 'origin'], work);
    await ts.fetch('/api/v1/repos/alice/frozen', jsonInit('PATCH', { archived: false }, tokenHeader(alice)));
    await gitOk(['push', '-q', 'origin', 'main'], work);
  });
});
