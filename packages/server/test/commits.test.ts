/**
 * Commit history over the API (`/commits`, `/git/commits/{sha}[.diff|.patch]`, `/compare/{basehead}`) against
 * repositories built with the real `git` client and pushed over HTTP, in sha1 and sha256 object formats.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CommitSchema, CompareSchema, matchesSchema, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let alice: User;
let bob: User;
let h: Record<string, string>;
let bobH: Record<string, string>;
let aliceToken: string;

function git(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: { ...gitEnv, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')}: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

interface Built {
  full: string;
  /** Commit ids, oldest first. */
  ids: string[];
  dir: string;
}

/**
 * Three commits on main by alice (her account's address): add a.txt; change a.txt and add b/c.txt; remove b/c.txt.
 * Then a `side` branch with one more commit.
 */
async function build(format: 'sha1' | 'sha256', options: { private?: boolean } = {}): Promise<Built> {
  const name = uniq('c');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: options.private ?? false, object_format_name: format }, h));
  expect(res.status).toBe(201);
  const full = `${alice.name}/${name}`;
  const dir = path.join(scratch, uniq('w'));
  await git(['init', '-q', `--object-format=${format}`, '-b', 'main', dir], scratch);
  const commit = async (message: string, date: string) => {
    await git(['add', '-A'], dir);
    await git(['-c', `user.email=${alice.email}`, '-c', 'user.name=Alice A', 'commit', '-q', '-m', message], dir, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    return (await git(['rev-parse', 'HEAD'], dir)).trim();
  };
  const ids: string[] = [];
  await writeFile(path.join(dir, 'a.txt'), 'one\ntwo\n');
  ids.push(await commit('first', '2024-01-01T10:00:00Z'));
  await writeFile(path.join(dir, 'a.txt'), 'one\nTWO\nthree\n');
  await mkdir(path.join(dir, 'b'));
  await writeFile(path.join(dir, 'b', 'c.txt'), 'c\n');
  ids.push(await commit('second\n\nbody', '2024-02-01T10:00:00Z'));
  await unlink(path.join(dir, 'b', 'c.txt'));
  ids.push(await commit('third', '2024-03-01T10:00:00Z'));
  const url = `${s.url.replace('http://', `http://${alice.name}:${aliceToken}@`)}${full}.git`;
  await git(['push', '-q', url, 'main'], dir);
  await git(['checkout', '-q', '-b', 'side'], dir);
  await writeFile(path.join(dir, 'side.txt'), 's\n');
  await commit('side work', '2024-04-01T10:00:00Z');
  await git(['push', '-q', url, 'side'], dir);
  await git(['checkout', '-q', 'main'], dir);
  return { full, ids, dir };
}

beforeAll(async () => {
  s = await startTestServer();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-commits-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  alice = await createUser(s.host, uniq('alice'));
  bob = await createUser(s.host, uniq('bob'));
  aliceToken = await createToken(s.host, alice.name);
  h = tokenHeader(aliceToken);
  bobH = tokenHeader(await createToken(s.host, bob.name));
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.each(['sha1', 'sha256'] as const)('%s repositories', (format) => {
  let repo: Built;
  beforeAll(async () => {
    repo = await build(format);
  });

  test('GET /commits pages the default branch, newest first, with files, stats, accounts and verification', async () => {
    const res = await s.fetch(`/api/v1/repos/${repo.full}/commits?limit=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('x-pagecount')).toBe('2');
    expect(res.headers.get('x-hasmore')).toBe('true');
    expect(res.headers.get('link')).toContain('rel="next"');
    const body = await json<any[]>(res);
    expect(body).toHaveLength(2);
    for (const c of body) expect(matchesSchema(CommitSchema, c)).toBe(true);
    const [third, second] = body;
    expect(third.sha).toBe(repo.ids[2]);
    expect(third.sha).toHaveLength(format === 'sha1' ? 40 : 64);
    expect(third.parents.map((p: any) => p.sha)).toEqual([repo.ids[1]]);
    expect(third.files).toEqual([{ filename: 'b/c.txt', status: 'removed' }]);
    expect(third.stats).toEqual({ total: 1, additions: 0, deletions: 1 });
    expect(second.commit.message).toBe('second\n\nbody\n');
    expect(second.files).toEqual([
      { filename: 'b/c.txt', status: 'added' },
      { filename: 'a.txt', status: 'modified' },
    ]);
    expect(second.stats).toEqual({ total: 4, additions: 3, deletions: 1 });
    expect(second.commit.author).toEqual({ name: 'Alice A', email: alice.email, date: '2024-02-01T10:00:00Z' });
    expect(second.author.login).toBe(alice.name);
    expect(second.committer.login).toBe(alice.name);
    expect(second.commit.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' });
    expect(second.html_url).toBe(`${s.url}${repo.full}/commit/${repo.ids[1]}`);
    expect(second.url).toBe(`${s.url}api/v1/repos/${repo.full}/git/commits/${repo.ids[1]}`);

    const last = await s.fetch(`/api/v1/repos/${repo.full}/commits?limit=2&page=2`);
    expect(last.headers.get('x-hasmore')).toBe('false');
    expect((await json<any[]>(last)).map((c) => c.sha)).toEqual([repo.ids[0]]);
  });

  test('stat=false leaves out stats and files; verification=false and files=false leave out theirs', async () => {
    const lean = await json<any[]>(await s.fetch(`/api/v1/repos/${repo.full}/commits?stat=false&verification=false`));
    expect(lean).toHaveLength(3);
    expect(lean[0].stats).toBeNull();
    expect(lean[0].files).toBeNull();
    expect(lean[0].commit.verification).toBeNull();
    const noFiles = await json<any[]>(await s.fetch(`/api/v1/repos/${repo.full}/commits?files=false`));
    expect(noFiles[0].files).toBeNull();
    expect(noFiles[0].stats).toEqual({ total: 1, additions: 0, deletions: 1 });
  });

  test('sha, path and not filter the listing, and the count follows them', async () => {
    const side = await s.fetch(`/api/v1/repos/${repo.full}/commits?sha=side&stat=false`);
    expect(side.headers.get('x-total-count')).toBe('4');
    const notMain = await s.fetch(`/api/v1/repos/${repo.full}/commits?sha=side&not=main&stat=false`);
    expect(notMain.headers.get('x-total-count')).toBe('1');
    expect((await json<any[]>(notMain))[0].commit.message).toBe('side work\n');
    const byPath = await s.fetch(`/api/v1/repos/${repo.full}/commits?path=b`);
    expect(byPath.headers.get('x-total-count')).toBe('2');
    const pathCommits = await json<any[]>(byPath);
    expect(pathCommits.map((c) => c.sha)).toEqual([repo.ids[2], repo.ids[1]]);
    // Statistics stay the whole commit's, as Forgejo counts them.
    expect(pathCommits[1].stats.total).toBe(4);
    const since = await s.fetch(`/api/v1/repos/${repo.full}/commits?since=2024-01-15T00:00:00Z&until=2024-02-15T00:00:00Z&stat=false`);
    expect((await json<any[]>(since)).map((c) => c.sha)).toEqual([repo.ids[1]]);
  });

  test('unknown refs and untouched paths are 404, bad times 422, an empty repository 409', async () => {
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits?sha=nope`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits?sha=--all`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits?not=nope`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits?path=zzz`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits?path=../x`), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits?since=yesterday`), 422, s.url);
    const empty = uniq('e');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: empty, object_format_name: format }, h))).status).toBe(201);
    expect(await expectApiError(await s.fetch(`/api/v1/repos/${alice.name}/${empty}/commits`), 409, s.url)).toBe('Git Repository is empty.');
  });

  test('GET /git/commits/{sha} by id or ref, with the same options; unknown 404', async () => {
    const byId = await json<any>(await s.fetch(`/api/v1/repos/${repo.full}/git/commits/${repo.ids[1]}`));
    expect(matchesSchema(CommitSchema, byId)).toBe(true);
    expect(byId.sha).toBe(repo.ids[1]);
    expect(byId.stats.total).toBe(4);
    const byRef = await json<any>(await s.fetch(`/api/v1/repos/${repo.full}/git/commits/main?stat=false`));
    expect(byRef.sha).toBe(repo.ids[2]);
    expect(byRef.stats).toBeNull();
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/git/commits/${'0'.repeat(format === 'sha1' ? 40 : 64)}`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/git/commits/nope`), 404, s.url);
  });

  test('.diff and .patch are what git writes', async () => {
    const diff = await s.fetch(`/api/v1/repos/${repo.full}/git/commits/${repo.ids[1]}.diff`);
    expect(diff.status).toBe(200);
    expect(diff.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await diff.text()).toBe(await git(['diff', '-M', repo.ids[0]!, repo.ids[1]!], repo.dir));
    const root = await (await s.fetch(`/api/v1/repos/${repo.full}/git/commits/${repo.ids[0]}.diff`)).text();
    expect(root).toContain('new file mode 100644');
    expect(root).toContain('+++ b/a.txt');
    const patch = await (await s.fetch(`/api/v1/repos/${repo.full}/git/commits/${repo.ids[1]}.patch`)).text();
    expect(patch).toContain('Subject: [PATCH] second');
    expect(patch).toContain(`From ${repo.ids[1]} `);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/git/commits/nope.diff`), 404, s.url);
  });

  test('GET /compare/{base}...{head} lists what head adds', async () => {
    const res = await s.fetch(`/api/v1/repos/${repo.full}/compare/main...side`);
    expect(res.status).toBe(200);
    const body = await json<any>(res);
    expect(matchesSchema(CompareSchema, body)).toBe(true);
    expect(body.total_commits).toBe(1);
    expect(body.commits[0].commit.message).toBe('side work\n');
    expect(body.commits[0].files).toEqual([{ filename: 'side.txt', status: 'added' }]);
    const none = await json<any>(await s.fetch(`/api/v1/repos/${repo.full}/compare/side...main`));
    expect(none.total_commits).toBe(0);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/compare/main...nope`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/compare/main`), 404, s.url);
  });
});

test('a private repository’s commits are 404 to others and anonymous callers', async () => {
  const repo = await build('sha1', { private: true });
  expect((await s.fetch(`/api/v1/repos/${repo.full}/commits`, { headers: h })).status).toBe(200);
  await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits`, { headers: bobH }), 404, s.url);
  await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/commits`), 404, s.url);
  await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/git/commits/main`), 404, s.url);
  await expectApiError(await s.fetch(`/api/v1/repos/${repo.full}/git/commits/${repo.ids[0]}.diff`), 404, s.url);
});

test('the first commit of a repository created with README, "C,C++" and MIT adds 109 lines, as Forgejo’s does', async () => {
  // Clients count this commit (the Gitea SDK's TestListRepoCommits): README 3 lines, .gitignore 88, LICENSE 18.
  const name = uniq('init');
  const created = await s.fetch(
    '/api/v1/user/repos',
    jsonInit('POST', { name, description: `A test Repo: ${name}`, auto_init: true, gitignores: 'C,C++', license: 'MIT', readme: 'Default' }, h),
  );
  expect(created.status).toBe(201);
  const [first] = await json<any[]>(await s.fetch(`/api/v1/repos/${alice.name}/${name}/commits?stat=true&verification=true`));
  expect(first.commit.message).toBe('Initial commit\n');
  expect(first.commit.verification.reason).toBe('gpg.error.not_signed_commit');
  expect(first.stats).toEqual({ total: 109, additions: 109, deletions: 0 });
  const gitignore = await (await s.fetch(`/api/v1/repos/${alice.name}/${name}/raw/.gitignore`)).text();
  expect(gitignore.startsWith('# ---> C\n# Prerequisites\n')).toBe(true);
  expect(gitignore).toContain('\n\n# ---> C++\n# Prerequisites\n');
  expect(gitignore.split('\n')).toHaveLength(89);
});

test('a commit page, served again, shows its accounts as each viewer sees them now and its URLs under the current name', async () => {
  // Commit JSON is kept as bytes between answers (it is fixed by the commit id); what it shows of accounts and of
  // the repository must still be what holds at the time of each answer.
  const carol = await createUser(s.host, uniq('carol'));
  const carolH = tokenHeader(await createToken(s.host, carol.name));
  const name = uniq('kept');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true }, carolH))).status).toBe(201);
  const first = async (full: string, headers: Record<string, string> = {}, query = '') => {
    const res = await s.fetch(`/api/v1/repos/${full}/commits?limit=1${query}`, { headers });
    expect(res.status).toBe(200);
    return (await json<any[]>(res))[0];
  };
  let full = `${carol.name}/${name}`;

  const own = await first(full, carolH);
  expect(own.author).toMatchObject({ login: carol.name, email: carol.email, active: true, followers_count: 0 });
  expect(await first(full, carolH)).toEqual(own);
  // The same commit to others: the no-reply address to anonymous callers, no account fields to another user.
  const anonymous = await first(full);
  expect(anonymous.sha).toBe(own.sha);
  expect(anonymous.author.email).not.toBe(carol.email);
  expect(anonymous.author.email).toContain('@noreply.');
  const toBob = await first(full, bobH);
  expect(toBob.author).toMatchObject({ email: carol.email, active: false });
  expect(await first(full, carolH)).toEqual(own);

  // The account changes: every viewer sees the change on the next page.
  expect((await s.fetch('/api/v1/user/settings', jsonInit('PATCH', { full_name: 'Carol Renamed' }, carolH))).status).toBe(200);
  expect((await s.fetch(`/api/v1/user/following/${carol.name}`, { method: 'PUT', headers: bobH })).status).toBe(204);
  expect((await first(full, carolH)).author).toMatchObject({ full_name: 'Carol Renamed', followers_count: 1 });
  expect((await first(full)).author).toMatchObject({ full_name: 'Carol Renamed', followers_count: 1 });

  // Statistics asked for or not.
  expect((await first(full, carolH, '&stat=false')).stats).toBeNull();
  expect((await first(full, carolH)).stats).toEqual(own.stats);
  expect(own.stats).not.toBeNull();

  // The repository is renamed: its commits' URLs follow.
  const renamed = uniq('renamed');
  expect((await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { name: renamed }, carolH))).status).toBe(200);
  full = `${carol.name}/${renamed}`;
  const moved = await first(full, carolH);
  expect(moved.url).toBe(`${s.url}api/v1/repos/${full}/git/commits/${own.sha}`);
  expect(moved.html_url).toBe(`${s.url}${full}/commit/${own.sha}`);
  expect(moved.commit.tree.url).toBe(`${s.url}api/v1/repos/${full}/git/trees/${own.sha}`);
  // The single commit is the same JSON as the listed one.
  expect(await json(await s.fetch(`/api/v1/repos/${full}/git/commits/${own.sha}`, { headers: carolH }))).toEqual(moved);
});
