/**
 * The branch list and the commit pages keep what they read from git (issue 28): a branch list is kept while the
 * refs on disk are unchanged, a commit page and its count under the tip's commit id. These tests prove that what
 * is kept is never served stale: two RepoHost instances are opened on one work folder and one database (two
 * server processes, as far as git storage can tell), the refs are changed through the second one (pushes, a
 * force-push, branch deletions, packed refs, branches in folders) and the first one must answer the new state at
 * once. What a kept listing or page is combined with at each read (the accounts behind commit emails, branch
 * rules) follows changes at once too.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { NativeGitBackend, RepoHost, type User } from '@repohost/core';
import { startServer } from '@repohost/server';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

/** A listing whose refs changed less than this ago is read again (the native backend's RACY_MS, and a margin). */
const SETTLE_MS = 2300;

let s: TestServer;
let other: RepoHost;
let otherClose: () => Promise<void>;
let otherUrl: string;
let scratch: string;
let env: NodeJS.ProcessEnv;
let alice: User;
let token: string;
let h: Record<string, string>;
let full: string;
let work: string;

function git(args: string[], cwd: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')}: ${stderr}`));
      else resolve(String(stdout).trim());
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

/** Pushes through the second instance's server. */
function pushViaOther(...refspecs: string[]): Promise<string> {
  return git(['push', '-q', `${otherUrl.replace('http://', `http://${alice.name}:${token}@`)}${full}.git`, ...refspecs], work);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

function backend(): NativeGitBackend {
  expect(s.host.git).toBeInstanceOf(NativeGitBackend);
  return s.host.git as NativeGitBackend;
}

/** The first instance's branch list: name → commit id, in its order. */
async function branches(query = ''): Promise<[string, string][]> {
  const res = await s.fetch(`/api/v1/repos/${full}/branches${query}`, { headers: h });
  expect(res.status).toBe(200);
  const body = await json<{ name: string; commit: { id: string } }[]>(res);
  if (query === '') expect(res.headers.get('x-total-count')).toBe(String(body.length));
  return body.map((b) => [b.name, b.commit.id]);
}

/** Git processes the first instance starts for `read`. */
async function processesFor(read: () => Promise<unknown>): Promise<number> {
  const before = backend().processesStarted;
  await read();
  return backend().processesStarted - before;
}

async function commit(message: string): Promise<string> {
  await git(['commit', '-q', '--allow-empty', '-m', message], work);
  return git(['rev-parse', 'HEAD'], work);
}

beforeAll(async () => {
  s = await startTestServer({ database: { PATH: 'shared.db' } });
  // A second instance on the same settings: the same database file and the same repository folder.
  other = await RepoHost.open({ settings: s.host.settings, reconcile: false });
  const running = await startServer(other, { port: 0, hostname: '127.0.0.1' });
  otherUrl = `http://127.0.0.1:${(running.server.address() as AddressInfo).port}/`;
  otherClose = async () => {
    await running.close();
    await other.close();
  };
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-git-reads-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  env = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Tester',
    GIT_COMMITTER_NAME: 'Tester',
  };
  alice = await createUser(s.host, uniq('alice'));
  env.GIT_AUTHOR_EMAIL = alice.email;
  env.GIT_COMMITTER_EMAIL = alice.email;
  token = await createToken(s.host, alice.name);
  h = tokenHeader(token);
  const name = uniq('cache');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name }, h))).status).toBe(201);
  full = `${alice.name}/${name}`;
  work = path.join(scratch, 'work');
  await git(['init', '-q', '-b', 'main', work], scratch);
  for (let i = 1; i <= 3; i++) await commit(`c${i}`);
  await git(['branch', 'b1', 'HEAD~1'], work);
  await git(['branch', 'b2', 'HEAD~2'], work);
  await git(['push', '-q', `${s.url.replace('http://', `http://${alice.name}:${token}@`)}${full}.git`, 'main', 'b1', 'b2'], work);
}, 60_000);

afterAll(async () => {
  await otherClose?.();
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('a settled branch list is answered without git, and never stale after pushes through another instance', async () => {
  const main = await git(['rev-parse', 'main'], work);
  await settle();
  await branches();
  // Kept: neither the list, nor a page of it, nor one branch starts git.
  expect(await processesFor(() => branches())).toBe(0);
  expect(await processesFor(() => branches('?limit=1&page=2'))).toBe(0);
  expect(await processesFor(async () => expect((await s.fetch(`/api/v1/repos/${full}/branches/b1`, { headers: h })).status).toBe(200))).toBe(0);
  expect(Object.fromEntries(await branches())).toEqual({
    main,
    b1: await git(['rev-parse', 'b1'], work),
    b2: await git(['rev-parse', 'b2'], work),
  });

  // A new commit on main and a new branch, pushed through the other instance: seen at once.
  const c4 = await commit('c4');
  await git(['branch', 'b3', 'HEAD'], work);
  await pushViaOther('main', 'b3');
  let listed = Object.fromEntries(await branches());
  expect(listed.main).toBe(c4);
  expect(listed.b3).toBe(c4);
  expect(Object.keys(listed).sort()).toEqual(['b1', 'b2', 'b3', 'main']);

  // Changes in quick succession (inside the file system's time stamp granularity) are all seen.
  await git(['branch', 'b4', 'HEAD~1'], work);
  await pushViaOther('b4');
  expect(Object.keys(Object.fromEntries(await branches()))).toContain('b4');
  await pushViaOther(':refs/heads/b4');
  expect(Object.keys(Object.fromEntries(await branches()))).not.toContain('b4');

  // A force-push of main back to an older commit, and a deletion, after the list was kept again.
  await settle();
  await branches();
  expect(await processesFor(() => branches())).toBe(0);
  await pushViaOther('+main~2:refs/heads/main', ':refs/heads/b3');
  listed = Object.fromEntries(await branches());
  expect(listed).toEqual({ main: await git(['rev-parse', 'main~2'], work), b1: await git(['rev-parse', 'b1'], work), b2: await git(['rev-parse', 'b2'], work) });
  const gone = await s.fetch(`/api/v1/repos/${full}/branches/b3`, { headers: h });
  expect(gone.status).toBe(404);
  // Put main back for the tests below.
  await pushViaOther('+main:refs/heads/main');
  expect(Object.fromEntries(await branches()).main).toBe(c4);
});

test('a branch deleted from packed-refs by another instance leaves the kept list', async () => {
  const dir = path.join(s.host.settings.repository.ROOT, full.split('/')[0]!.toLowerCase(), `${full.split('/')[1]!.toLowerCase()}.git`);
  await git(['--git-dir', dir, 'pack-refs', '--all'], scratch);
  await settle();
  expect((await branches()).map(([name]) => name)).toContain('b2');
  expect(await processesFor(() => branches())).toBe(0);
  // b2 lives only in packed-refs now: deleting it rewrites that file.
  await pushViaOther(':refs/heads/b2');
  expect((await branches()).map(([name]) => name)).not.toContain('b2');
  expect((await s.fetch(`/api/v1/repos/${full}/branches/b2`, { headers: h })).status).toBe(404);
  // And a branch moved while packed (main): the loose ref written over it wins.
  await git(['--git-dir', dir, 'pack-refs', '--all'], scratch);
  await settle();
  await branches();
  const c5 = await commit('c5');
  await pushViaOther('main');
  expect(Object.fromEntries(await branches()).main).toBe(c5);
});

test('the commit count of a branch tip follows new commits and force-pushes', async () => {
  const count = async () => {
    const res = await s.fetch(`/api/v1/repos/${full}/commits?limit=2&stat=false&verification=false&files=false`, { headers: h });
    expect(res.status).toBe(200);
    const body = await json<{ sha: string }[]>(res);
    return { total: Number(res.headers.get('x-total-count')), shas: body.map((c) => c.sha) };
  };
  const tip = await git(['rev-parse', 'main'], work);
  const before = await count();
  expect(before.total).toBe(Number(await git(['rev-list', '--count', 'main'], work)));
  expect(before.shas[0]).toBe(tip);
  // Read again: the page and its count are kept under the tip, so no git process at all.
  expect(await processesFor(count)).toBe(0);

  const c6 = await commit('c6');
  const c7 = await commit('c7');
  await pushViaOther('main');
  const after = await count();
  expect(after).toEqual({ total: before.total + 2, shas: [c7, c6] });
  // With statistics, the same page from the same walk.
  const stat = await s.fetch(`/api/v1/repos/${full}/commits?limit=2`, { headers: h });
  expect(stat.headers.get('x-total-count')).toBe(String(before.total + 2));
  expect((await json<{ sha: string; stats: { total: number } }[]>(stat)).map((c) => c.sha)).toEqual([c7, c6]);

  // Back to the old tip: the old count again, not the newer one.
  await pushViaOther(`+${tip}:refs/heads/main`);
  expect(await count()).toEqual(before);
  // Another instance's own pages are right too (it keeps its own).
  const res = await fetch(`${otherUrl}api/v1/repos/${full}/commits?limit=1&stat=false`, { headers: h });
  expect(res.headers.get('x-total-count')).toBe(String(before.total));
});

test('branches in folders, added and removed by another instance, are seen once the list was kept', async () => {
  const names = async () => (await branches()).map(([name]) => name);
  /** The list is kept again: the next read starts no git process. */
  const kept = async () => {
    await settle();
    await branches();
    expect(await processesFor(() => branches())).toBe(0);
  };
  await kept();
  // A new folder under refs/heads.
  await git(['branch', 'feature/a', 'main'], work);
  await pushViaOther('feature/a');
  expect(await names()).toContain('feature/a');
  // A branch added inside that folder: refs/heads itself keeps its time stamps, only the folder's change.
  await kept();
  await git(['branch', 'feature/b', 'main~1'], work);
  await pushViaOther('feature/b');
  expect(await names()).toEqual(expect.arrayContaining(['feature/a', 'feature/b']));
  // A folder inside the folder.
  await kept();
  await git(['branch', 'feature/deep/c', 'main'], work);
  await pushViaOther('feature/deep/c');
  expect(await names()).toContain('feature/deep/c');
  expect((await s.fetch(`/api/v1/repos/${full}/branches/feature/deep/c`, { headers: h })).status).toBe(200);
  // Deleted again, the innermost first (git removes the folders left empty).
  await kept();
  await pushViaOther(':refs/heads/feature/deep/c');
  expect(await names()).not.toContain('feature/deep/c');
  expect((await s.fetch(`/api/v1/repos/${full}/branches/feature/deep/c`, { headers: h })).status).toBe(404);
  await kept();
  await pushViaOther(':refs/heads/feature/a', ':refs/heads/feature/b');
  expect((await names()).filter((name) => name.startsWith('feature/'))).toEqual([]);
});

test('kept branch lists and commit pages follow the accounts behind commit emails and the branch rules', async () => {
  const ghost = `${uniq('ghost')}@example.com`;
  const saved = { author: env.GIT_AUTHOR_EMAIL, committer: env.GIT_COMMITTER_EMAIL };
  env.GIT_AUTHOR_EMAIL = ghost;
  env.GIT_COMMITTER_EMAIL = ghost;
  let first: string;
  let second: string;
  try {
    await git(['checkout', '-q', '-b', 'ghost', 'main'], work);
    first = await commit('by an address nobody has yet');
    second = await commit('and another');
    await pushViaOther('ghost');
  } finally {
    env.GIT_AUTHOR_EMAIL = saved.author;
    env.GIT_COMMITTER_EMAIL = saved.committer;
    await git(['checkout', '-q', 'main'], work);
  }
  type Branch = { name: string; protected: boolean; effective_branch_protection_name: string; commit: { id: string; author: { email: string; username: string }; committer: { username: string } } };
  type Commit = { sha: string; author: { id: number; login: string } | null; committer: { id: number; login: string } | null; commit: { author: { email: string } } };
  const branch = async () => {
    const res = await s.fetch(`/api/v1/repos/${full}/branches/ghost`, { headers: h });
    expect(res.status).toBe(200);
    return json<Branch>(res);
  };
  const listed = async () => (await json<Branch[]>(await s.fetch(`/api/v1/repos/${full}/branches?limit=50`, { headers: h }))).find((b) => b.name === 'ghost');
  const page = async () => {
    const res = await s.fetch(`/api/v1/repos/${full}/commits?sha=ghost&limit=2&stat=false&files=false`, { headers: h });
    expect(res.status).toBe(200);
    return json<Commit[]>(res);
  };
  await settle();
  expect((await branch()).commit).toMatchObject({ id: second, author: { email: ghost, username: '' }, committer: { username: '' } });
  expect((await page()).map((c) => [c.sha, c.author, c.committer, c.commit.author.email])).toEqual([
    [second, null, null, ghost],
    [first, null, null, ghost],
  ]);
  // Both are kept now: read again without git.
  expect(await processesFor(branch)).toBe(0);
  expect(await processesFor(page)).toBe(0);

  // The address becomes alice's: the kept listing and page name her at once.
  expect((await s.fetch('/api/v1/user/emails', jsonInit('POST', { emails: [ghost] }, h))).status).toBe(201);
  expect((await branch()).commit).toMatchObject({ id: second, author: { email: ghost, username: alice.name }, committer: { username: alice.name } });
  expect((await listed())?.commit.author.username).toBe(alice.name);
  const named = await page();
  for (const c of named) {
    expect(c.author).toMatchObject({ id: alice.id, login: alice.name });
    expect(c.committer).toEqual(c.author);
  }
  expect(named[1]!.author).toEqual(named[0]!.author);
  // And no longer hers.
  expect((await s.fetch('/api/v1/user/emails', jsonInit('DELETE', { emails: [ghost] }, h))).status).toBe(204);
  expect((await branch()).commit.author.username).toBe('');
  expect((await page()).map((c) => c.author)).toEqual([null, null]);

  // A rule made for the branch, then removed: the kept listing follows it.
  expect(await listed()).toMatchObject({ protected: false, effective_branch_protection_name: '' });
  expect((await s.fetch(`/api/v1/repos/${full}/branch_protections`, jsonInit('POST', { rule_name: 'ghost' }, h))).status).toBe(201);
  expect(await branch()).toMatchObject({ protected: true, effective_branch_protection_name: 'ghost' });
  expect(await listed()).toMatchObject({ protected: true, effective_branch_protection_name: 'ghost' });
  expect((await s.fetch(`/api/v1/repos/${full}/branch_protections/ghost`, { method: 'DELETE', headers: h })).status).toBe(204);
  expect(await branch()).toMatchObject({ protected: false, effective_branch_protection_name: '' });
  expect(await processesFor(listed)).toBe(0);
});
