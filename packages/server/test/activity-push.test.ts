/**
 * Push entries of activity feeds, from real pushes with the git client over HTTP: commit_repo with Forgejo's
 * push-commits JSON (newest first, at most FEED_MAX_COMMIT_NUM, `Len`, `CompareURL`, `HeadCommit`), push_tag,
 * delete_tag, delete_branch; who receives them (watchers who may read the code) and who may see them.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ActivitySchema, matchesSchema, schemaErrors, userActor, type ApiActivity } from '@repohost/core';
import { WatchesStore } from '@repohost/core/internal';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

interface PushCommit {
  Sha1: string;
  Message: string;
  AuthorEmail: string;
  AuthorName: string;
  CommitterEmail: string;
  CommitterName: string;
  Timestamp: string;
}
interface PushCommits {
  Commits: PushCommit[] | null;
  HeadCommit: PushCommit | null;
  CompareURL: string;
  Len: number;
}

const ZERO = '0'.repeat(40);

let s: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

function git(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: { ...gitEnv, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

async function account(prefix = 'p'): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  const token = await createToken(s.host, name);
  return { name, token, h: tokenHeader(token) };
}

async function createRepo(who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('r');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

/** A working copy pushing to `full` as `who`. */
async function workingCopy(full: string, who: Account): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, 'wc-'));
  await git(['init', '-q', '-b', 'main'], dir);
  const port = new URL(s.url).port;
  await git(['remote', 'add', 'origin', `http://${who.name}:${who.token}@127.0.0.1:${port}/${full}.git`], dir);
  return dir;
}

let clock = 1_700_000_000;
/** Commits a file change with the given message; author time advances a minute per commit. */
async function commit(dir: string, message: string, author = 'Ann Author <ann@example.com>'): Promise<string> {
  clock += 60;
  await writeFile(path.join(dir, 'file.txt'), `${message}\n${clock}\n`);
  await git(['add', 'file.txt'], dir);
  const [, name, email] = /^(.*) <(.*)>$/.exec(author)!;
  await git(['commit', '-q', '-m', message], dir, {
    GIT_AUTHOR_NAME: name!,
    GIT_AUTHOR_EMAIL: email!,
    GIT_AUTHOR_DATE: `${clock} +0200`,
    GIT_COMMITTER_DATE: `${clock} +0000`,
  });
  return (await git(['rev-parse', 'HEAD'], dir)).trim();
}

/** Pushes and waits until the push's feed entries are written (they are, after it commits, from git). */
async function push(dir: string, ...refspecs: string[]): Promise<void> {
  await git(['push', '-q', 'origin', ...refspecs], dir);
  await s.host.events.idle();
}

async function feed(pathname: string, headers: Record<string, string> = {}): Promise<ApiActivity[]> {
  const res = await s.fetch(`/api/v1/${pathname}`, { headers });
  expect(res.status, await res.clone().text()).toBe(200);
  const items = await json<ApiActivity[]>(res);
  for (const item of items) expect(matchesSchema(ActivitySchema, item), schemaErrors(ActivitySchema, item).join('\n')).toBe(true);
  return items;
}

const content = (entry: ApiActivity | undefined): PushCommits => JSON.parse(entry!.content) as PushCommits;

beforeAll(async () => {
  s = await startTestServer();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-activity-push-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('branch pushes', () => {
  let alice: Account;
  let full: string;
  let dir: string;
  const shas: string[] = [];
  beforeAll(async () => {
    alice = await account('alice');
    full = await createRepo(alice);
    dir = await workingCopy(full, alice);
  });

  test('the first push of a branch: commit_repo with every commit (newest first), no compare URL from the root', async () => {
    for (let i = 1; i <= 3; i++) shas.push(await commit(dir, `c${i}`));
    await push(dir, 'main');
    const [entry, created] = await feed(`users/${alice.name}/activities/feeds`, alice.h);
    expect(created!.op_type).toBe('create_repo');
    expect(entry).toMatchObject({ op_type: 'commit_repo', ref_name: 'refs/heads/main', act_user: { login: alice.name }, is_private: false });
    const body = content(entry);
    expect(Object.keys(body)).toEqual(['Commits', 'HeadCommit', 'CompareURL', 'Len']);
    expect(body.Commits!.map((c) => c.Sha1)).toEqual([...shas].reverse());
    expect(body.Len).toBe(3);
    expect(body.CompareURL).toBe('');
    expect(body.HeadCommit).toEqual(body.Commits![0]);
    expect(Object.keys(body.HeadCommit!)).toEqual(['Sha1', 'Message', 'AuthorEmail', 'AuthorName', 'CommitterEmail', 'CommitterName', 'Timestamp']);
    expect(body.HeadCommit).toMatchObject({
      Sha1: shas[2],
      Message: 'c3\n',
      AuthorName: 'Ann Author',
      AuthorEmail: 'ann@example.com',
      CommitterName: 'Git Tester',
      CommitterEmail: 'tester@example.com',
    });
    // The author's time, in the author's offset, as Go writes it.
    expect(body.HeadCommit!.Timestamp).toBe(new Date((clock + 2 * 3600) * 1000).toISOString().replace('.000Z', '+02:00'));
  });

  test('a later push lists at most FEED_MAX_COMMIT_NUM (5) commits, counts them all, and compares old...new', async () => {
    const before = shas[shas.length - 1]!;
    const added: string[] = [];
    for (let i = 4; i <= 10; i++) added.push(await commit(dir, `c${i}`));
    shas.push(...added);
    await push(dir, 'main');
    const [entry] = await feed(`repos/${full}/activities/feeds`);
    expect(entry!.op_type).toBe('commit_repo');
    const body = content(entry);
    expect(body.Len).toBe(7);
    expect(body.Commits!.map((c) => c.Sha1)).toEqual([...added].reverse().slice(0, 5));
    expect(body.CompareURL).toBe(`${full}/compare/${before}...${added[6]}`);
    expect(body.HeadCommit!.Sha1).toBe(added[6]);
  });

  test('a new branch lists the last 10 commits of its history and compares from the parent of the oldest', async () => {
    await git(['checkout', '-q', '-b', 'feature'], dir);
    const tip = await commit(dir, 'feature work');
    await push(dir, 'feature');
    const [entry] = await feed(`repos/${full}/activities/feeds`);
    expect(entry).toMatchObject({ op_type: 'commit_repo', ref_name: 'refs/heads/feature' });
    const body = content(entry);
    // History: c1..c10 and the tip; the entry covers the tip and the 9 before it.
    expect(body.Len).toBe(10);
    expect(body.Commits!.map((c) => c.Sha1)).toEqual([tip, ...[...shas].reverse().slice(0, 4)]);
    expect(body.CompareURL).toBe(`${full}/compare/${shas[0]}...${tip}`);
  });

  test('moving a branch back to an ancestor lists no commits but names the head', async () => {
    await git(['reset', '-q', '--hard', shas[8]!], dir);
    await push(dir, '--force', 'feature');
    const [entry] = await feed(`repos/${full}/activities/feeds`);
    const body = content(entry);
    expect(body).toMatchObject({ Commits: [], Len: 0, HeadCommit: { Sha1: shas[8] } });
  });

  test('deleting a branch: delete_branch with empty content', async () => {
    await push(dir, ':feature');
    const [entry] = await feed(`repos/${full}/activities/feeds`);
    expect(entry).toMatchObject({ op_type: 'delete_branch', ref_name: 'refs/heads/feature', content: '' });
  });

  test('tags: push_tag names the tagged commit; delete_tag lists nothing', async () => {
    await git(['tag', '-a', '-m', 'release', 'v1', shas[9]!], dir);
    await git(['tag', 'light', shas[1]!], dir);
    await push(dir, 'v1', 'light');
    const [second, first] = await feed(`repos/${full}/activities/feeds`);
    const byRef = new Map([first, second].map((e) => [e!.ref_name, e!]));
    // An annotated tag's ref holds the tag object: the compare URL names it, the head commit is the tagged one.
    const tagObject = (await git(['rev-parse', 'v1'], dir)).trim();
    expect(tagObject).not.toBe(shas[9]);
    for (const [ref, sha, target] of [['refs/tags/v1', shas[9], tagObject], ['refs/tags/light', shas[1], shas[1]]] as const) {
      const entry = byRef.get(ref);
      expect(entry?.op_type).toBe('push_tag');
      expect(content(entry)).toEqual({ Commits: null, HeadCommit: expect.objectContaining({ Sha1: sha }), CompareURL: `${full}/compare/${ZERO}...${target}`, Len: 0 });
    }
    await push(dir, ':refs/tags/light');
    const [deleted] = await feed(`repos/${full}/activities/feeds`);
    expect(deleted).toMatchObject({ op_type: 'delete_tag', ref_name: 'refs/tags/light' });
    expect(deleted!.content).toBe('{"Commits":null,"HeadCommit":null,"CompareURL":"","Len":0}');
  });

  test('content is JSON as Go writes it: <, > and & escaped', async () => {
    await git(['checkout', '-q', 'main'], dir);
    await commit(dir, 'fix <b> & more');
    await push(dir, 'main');
    const [entry] = await feed(`repos/${full}/activities/feeds`);
    expect(entry!.content).toContain('"Message":"fix \\u003cb\\u003e \\u0026 more\\n"');
    expect(content(entry).Commits![0]!.Message).toBe('fix <b> & more\n');
  });
});

describe('who receives and sees push entries', () => {
  test('a private repository’s pushes: in the pusher’s feed privately, hidden from others', async () => {
    const bob = await account('bob');
    const other = await account('other');
    const full = await createRepo(bob, { private: true });
    const dir = await workingCopy(full, bob);
    await commit(dir, 'secret');
    await push(dir, 'main');
    const own = await feed(`users/${bob.name}/activities/feeds`, bob.h);
    expect(own.map((a) => [a.op_type, a.is_private])).toEqual([
      ['commit_repo', true],
      ['create_repo', true],
    ]);
    expect(await feed(`users/${bob.name}/activities/feeds`, other.h)).toEqual([]);
    expect(await feed(`users/${bob.name}/activities/feeds`)).toEqual([]);
    expect((await s.fetch(`/api/v1/repos/${full}/activities/feeds`, { headers: other.h })).status).toBe(404);
    // The heatmap counts both for Bob himself, nothing for others.
    const heat = await json<{ contributions: number }[]>(await s.fetch(`/api/v1/users/${bob.name}/heatmap`, { headers: bob.h }));
    expect(heat.reduce((n, b) => n + b.contributions, 0)).toBe(2);
    expect(await json(await s.fetch(`/api/v1/users/${bob.name}/heatmap`, { headers: other.h }))).toEqual([]);
  });

  test('watchers get code entries while they may read the code; a star reaches the owner’s and watchers’ feeds', async () => {
    const dora = await account('dora');
    const walt = await account('walt');
    const waltUser = await userNamed(s.host, walt.name);
    // Until stars and watches have their routes (another part of this issue), Walt watches and stars through the
    // events' own transaction, as an embedder could.
    const off = s.host.events.withinTransaction('repo.created', async ({ payload }, tx) => {
      if (payload.owner.name !== dora.name) return;
      await tx.store(WatchesStore).watch(waltUser.id, payload.repo.id);
      tx.emit('repo.starred', { user: waltUser, repo: payload.repo, actor: userActor(waltUser) });
    });
    let full: string;
    try {
      full = await createRepo(dora);
    } finally {
      off();
    }
    const star = (await feed(`users/${dora.name}/activities/feeds`, dora.h)).find((a) => a.op_type === 'star_repo');
    expect(star).toMatchObject({ act_user: { login: walt.name }, repo: { full_name: full } });
    expect((await feed(`users/${walt.name}/activities/feeds`, walt.h)).map((a) => [a.op_type, a.act_user.login])).toEqual([['star_repo', walt.name]]);

    const dir = await workingCopy(full, dora);
    await commit(dir, 'public work');
    await push(dir, 'main');
    const seen = await feed(`users/${walt.name}/activities/feeds`, walt.h);
    expect(seen[0]).toMatchObject({ op_type: 'commit_repo', act_user: { login: dora.name }, user_id: waltUser.id });

    // Private now: Walt still watches but may not read the code, so the next push does not reach his feed.
    expect((await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { private: true }, dora.h))).status).toBe(200);
    await commit(dir, 'private work');
    await push(dir, 'main');
    const doraFeed = await feed(`users/${dora.name}/activities/feeds`, dora.h);
    expect(doraFeed.filter((a) => a.op_type === 'commit_repo')).toHaveLength(2);
    expect(await feed(`users/${walt.name}/activities/feeds`, walt.h)).toEqual([]);
    // Public again: the first push shows in his feed again, the second was never written there.
    expect((await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { private: false }, dora.h))).status).toBe(200);
    expect((await feed(`users/${walt.name}/activities/feeds`, walt.h)).map((a) => a.op_type)).toEqual(['commit_repo', 'star_repo']);
  });

  test('a push into an empty repository by its owner reaches the owner once', async () => {
    const carol = await account('carol');
    const full = await createRepo(carol);
    const dir = await workingCopy(full, carol);
    await commit(dir, 'one');
    await push(dir, 'main');
    const entries = await feed(`users/${carol.name}/activities/feeds`, carol.h);
    expect(entries.map((a) => a.op_type)).toEqual(['commit_repo', 'create_repo']);
    expect((await feed(`repos/${full}/activities/feeds`)).map((a) => a.op_type)).toEqual(['commit_repo', 'create_repo']);
  });
});
