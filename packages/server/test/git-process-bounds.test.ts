/**
 * Pages of commits and branches start a bounded number of git processes, not one per item: counted by the git
 * backend itself (every git process starts through `NativeGitBackend.spawnGit`), on a repository of 60 commits
 * and 60 branches pushed with the real `git` client.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { NativeGitBackend, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

let s: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let alice: User;
let full: string;
let work: string;
let pushUrl: string;

function git(args: string[], cwd: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env: gitEnv, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')}: ${stderr}`));
      else resolve(String(stdout).trim());
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

function backend(): NativeGitBackend {
  expect(s.host.git).toBeInstanceOf(NativeGitBackend);
  return s.host.git as NativeGitBackend;
}

/** The git processes `request` starts, after a first run has started the repository's long-lived reader. */
async function processesFor(request: () => Promise<void>): Promise<number> {
  await request();
  const before = backend().processesStarted;
  await request();
  return backend().processesStarted - before;
}

beforeAll(async () => {
  s = await startTestServer();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-bounds-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  alice = await createUser(s.host, uniq('alice'));
  const token = await createToken(s.host, alice.name);
  const name = uniq('many');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name }, tokenHeader(token)))).status).toBe(201);
  full = `${alice.name}/${name}`;
  // 60 commits, each changing a file, and a branch at each of them: one fast-import.
  work = path.join(scratch, 'work');
  await git(['init', '-q', '-b', 'main', work], scratch);
  let stream = '';
  for (let i = 1; i <= 60; i++) {
    const content = `line ${i}\n`;
    stream += `commit refs/heads/main\nmark :${i}\ncommitter Tester <${alice.email}> ${1700000000 + i * 60} +0000\ndata ${`c${i}`.length}\nc${i}\n`;
    stream += `M 100644 inline file${i % 7}.txt\ndata ${content.length}\n${content}\n`;
    stream += `reset refs/heads/b${String(i).padStart(2, '0')}\nfrom :${i}\n\n`;
  }
  await git(['fast-import', '--quiet'], work, stream);
  pushUrl = `${s.url.replace('http://', `http://${alice.name}:${token}@`)}${full}.git`;
  await git(['push', '-q', pushUrl, '--all'], work);
  await quiet();
}, 60_000);

/** Waits until no git process has started for a while: what a push set going in the background has ended. */
async function quiet(): Promise<void> {
  for (let last = -1; last !== backend().processesStarted; ) {
    last = backend().processesStarted;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('a page of 50 commits starts at most three git processes, with or without statistics and verification', async () => {
  for (const query of ['limit=50&stat=false&verification=false', 'limit=50&stat=false', 'limit=50', 'limit=50&page=2']) {
    let count = 0;
    const started = await processesFor(async () => {
      const res = await s.fetch(`/api/v1/repos/${full}/commits?${query}`);
      expect(res.status).toBe(200);
      count = (await json<unknown[]>(res)).length;
    });
    expect(count, query).toBe(query.includes('page=2') ? 10 : 50);
    // `git log` for the page and `rev-list --count` for the total; objects come from the long-lived reader.
    expect(started, query).toBeLessThanOrEqual(3);
  }
});

test('a page of 50 branches starts at most three git processes', async () => {
  let names: string[] = [];
  const started = await processesFor(async () => {
    const res = await s.fetch(`/api/v1/repos/${full}/branches?limit=50`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('61');
    names = (await json<{ name: string }[]>(res)).map((b) => b.name);
  });
  expect(names).toHaveLength(50);
  expect(started).toBeLessThanOrEqual(3);
});

test('the feed entries of 30 pushed tags are read without a git process per tag', async () => {
  for (let i = 1; i <= 30; i++) {
    const target = `b${String(i).padStart(2, '0')}`;
    await git(i % 2 === 0 ? ['tag', '-a', '-m', `release ${i}`, `v${i}`, target] : ['tag', `v${i}`, target], work);
  }
  const before = backend().processesStarted;
  await git(['push', '-q', pushUrl, '--tags'], work);
  await quiet();
  // The push itself (advertisement, receive-pack) and its bookkeeping; not one `git log` per tag.
  expect(backend().processesStarted - before).toBeLessThanOrEqual(12);
  const feed = await json<{ op_type: string; ref_name: string; content: string }[]>(await s.fetch(`/api/v1/repos/${full}/activities/feeds?limit=50`));
  const tags = feed.filter((entry) => entry.op_type === 'push_tag');
  expect(tags).toHaveLength(30);
  // The head commit is the tagged commit, as git describes it.
  const v4 = JSON.parse(tags.find((entry) => entry.ref_name === 'refs/tags/v4')!.content);
  const [sha, message, authorName, authorEmail, committerName, committerEmail, time] = (
    await git(['log', '-1', '--format=%H%x00%B%x00%an%x00%ae%x00%cn%x00%ce%x00%aI', 'v4^{commit}'], work)
  ).split('\0');
  expect(v4.HeadCommit).toEqual({
    Sha1: sha,
    Message: message,
    AuthorEmail: authorEmail,
    AuthorName: authorName,
    CommitterEmail: committerEmail,
    CommitterName: committerName,
    Timestamp: time!.replace(/\+00:00$/, 'Z'),
  });
  expect(v4.Commits).toBeNull();
});
