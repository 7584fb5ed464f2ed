/**
 * Pull requests through the API: create (same repository), list with filters, get by index and by base/head,
 * edit (title, state, base), the diff and patch, commits and files; status computed from a real merge attempt
 * (mergeable, conflict); the head following pushes to its branch; who may see and change what.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ChangedFileSchema, CommitSchema, PullRequestSchema, SYSTEM, matchesSchema, schemaErrors } from '@repohost/core';
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { basic, createToken, createUser, jsonInit, PASSWORD, startTestServer, TEST_GIT, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('pull requests', () => {
  let s: TestServer;
  let owner: string;
  let h: Record<string, string>;
  let strangerH: Record<string, string>;
  let readerH: Record<string, string>;
  let reader: string;
  let scratch: string;

  function git(args: string[], cwd: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const env = { PATH: process.env.PATH, HOME: scratch, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
      execFile('git', args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
        else resolve(String(stdout));
      });
    });
  }

  async function newRepo(options: { private?: boolean } = {}): Promise<string> {
    const name = uniq('pr');
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: options.private ?? false }, h));
    expect(res.status).toBe(201);
    return `${owner}/${name}`;
  }

  /** Writes a file on `branch` (creating the branch from `from` when given) through the contents API. */
  async function put(full: string, file: string, content: string, opts: { branch?: string; from?: string } = {}): Promise<void> {
    const current = await s.fetch(`/api/v1/repos/${full}/contents/${file}?ref=${opts.from ?? opts.branch ?? 'main'}`, { headers: h });
    const sha = current.status === 200 ? (await json(current)).sha : undefined;
    const body = opts.from ? { content: b64(content), branch: opts.from, new_branch: opts.branch, sha } : { content: b64(content), branch: opts.branch, sha };
    const res = await s.fetch(`/api/v1/repos/${full}/contents/${file}`, jsonInit(sha ? 'PUT' : 'POST', body, h));
    expect(res.status, await res.clone().text()).toBeLessThan(300);
  }

  async function branchTip(full: string, branch: string): Promise<string> {
    return (await json(await s.fetch(`/api/v1/repos/${full}/branches/${branch}`, { headers: h }))).commit.id;
  }

  async function open(full: string, head: string, base = 'main', title = `pr ${head}`): Promise<Response> {
    return s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head, base, title, body: 'please' }, h));
  }

  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('timed out');
  }

  beforeAll(async () => {
    s = await startTestServer();
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-pulls-'));
    owner = uniq('po');
    await createUser(s.host, owner);
    h = tokenHeader(await createToken(s.host, owner));
    const stranger = uniq('ps');
    await createUser(s.host, stranger);
    strangerH = tokenHeader(await createToken(s.host, stranger));
    reader = uniq('pr');
    await createUser(s.host, reader);
    readerH = tokenHeader(await createToken(s.host, reader));
  });
  afterAll(async () => {
    await s?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  test('create, get, list, by base/head; the PR is an issue too; diff, patch, commits and files', async () => {
    const full = await newRepo();
    await put(full, 'feature.txt', 'one\ntwo\n', { branch: 'feature', from: 'main' });
    const head = await branchTip(full, 'feature');
    const base = await branchTip(full, 'main');

    const created = await open(full, 'feature');
    expect(created.status).toBe(201);
    const pr = await json(created);
    expect(schemaErrors(PullRequestSchema, pr)).toEqual([]);
    expect(pr).toMatchObject({
      number: 1,
      state: 'open',
      title: 'pr feature',
      body: 'please',
      merged: false,
      mergeable: true,
      merged_at: null,
      merge_commit_sha: null,
      draft: false,
      additions: 2,
      deletions: 0,
      changed_files: 1,
      merge_base: base,
      base: { ref: 'main', label: 'main', sha: base },
      head: { ref: 'feature', label: 'feature', sha: head },
      user: { login: owner },
    });
    expect(pr.head.repo.full_name).toBe(full);
    expect(pr.html_url).toBe(`${s.url}${full}/pulls/1`);
    expect(pr.diff_url).toBe(`${s.url}${full}/pulls/1.diff`);

    const got = await json(await s.fetch(`/api/v1/repos/${full}/pulls/1`, { headers: h }));
    expect(got.id).toBe(pr.id);
    const byBaseHead = await s.fetch(`/api/v1/repos/${full}/pulls/main/feature`, { headers: h });
    expect(byBaseHead.status).toBe(200);
    expect((await json(byBaseHead)).number).toBe(1);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls/main/nothing`, { headers: h }), 404, s.url);

    // The issue side: listed as a pull request among issues, with `pull_request` filled.
    const asIssue = await json(await s.fetch(`/api/v1/repos/${full}/issues/1`, { headers: h }));
    expect(asIssue.pull_request).toMatchObject({ merged: false });

    const list = await s.fetch(`/api/v1/repos/${full}/pulls?state=open`, { headers: h });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    const items = await json(list);
    expect(matchesSchema(Type.Array(PullRequestSchema), items)).toBe(true);
    expect(items.map((p: { number: number }) => p.number)).toEqual([1]);
    expect(await json(await s.fetch(`/api/v1/repos/${full}/pulls?state=closed`, { headers: h }))).toEqual([]);
    expect(await json(await s.fetch(`/api/v1/repos/${full}/pulls?base=other`, { headers: h }))).toEqual([]);
    expect((await json(await s.fetch(`/api/v1/repos/${full}/pulls?head=feature&base=main`, { headers: h }))).length).toBe(1);
    expect((await json(await s.fetch(`/api/v1/repos/${full}/pulls?poster=${owner}`, { headers: h }))).length).toBe(1);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls?poster=nobody-${uniq()}`, { headers: h }), 404, s.url);

    // Diffs and patches are native-only: the in-memory backend answers 501 (git/unsupported.ts).
    if (TEST_GIT === 'native') {
      const diff = await s.fetch(`/api/v1/repos/${full}/pulls/1.diff`, { headers: h });
      expect(diff.status).toBe(200);
      expect(diff.headers.get('content-type')).toMatch(/^text\/plain/);
      const diffText = await diff.text();
      expect(diffText).toContain('diff --git a/feature.txt b/feature.txt');
      expect(diffText).toContain('+two');
      const patch = await (await s.fetch(`/api/v1/repos/${full}/pulls/1.patch`, { headers: h })).text();
      expect(patch).toMatch(/^From [0-9a-f]{40} /);
    }
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/1.txt`, { headers: h })).status).toBe(404);

    const commits = await s.fetch(`/api/v1/repos/${full}/pulls/1/commits`, { headers: h });
    expect(commits.status).toBe(200);
    expect(commits.headers.get('x-total-count')).toBe('1');
    const commitList = await json(commits);
    expect(matchesSchema(Type.Array(CommitSchema), commitList)).toBe(true);
    expect(commitList[0].sha).toBe(head);
    expect(commitList[0].files).toEqual([{ filename: 'feature.txt', status: 'added' }]);
    expect(commitList[0].stats).toMatchObject({ additions: 2, deletions: 0, total: 2 });

    const files = await s.fetch(`/api/v1/repos/${full}/pulls/1/files`, { headers: h });
    expect(files.status).toBe(200);
    expect(files.headers.get('x-total-count')).toBe('1');
    const fileList = await json(files);
    expect(matchesSchema(Type.Array(ChangedFileSchema), fileList)).toBe(true);
    expect(fileList[0]).toMatchObject({ filename: 'feature.txt', status: 'added', additions: 2, deletions: 0, changes: 2 });
    expect(fileList[0].raw_url).toBe(`${s.url}${full}/raw/commit/${head}/feature.txt`);
    // A page beyond the last is an empty list.
    expect(await json(await s.fetch(`/api/v1/repos/${full}/pulls/1/files?page=5`, { headers: h }))).toEqual([]);

    // The feed shows the pull request as one, not as an issue.
    const feed = await json(await s.fetch(`/api/v1/users/${owner}/activities/feeds?only-performed-by=true`, { headers: h }));
    const ops = feed.filter((a: { repo: { full_name: string } }) => a.repo.full_name === full).map((a: { op_type: string; content: string }) => `${a.op_type} ${a.content}`);
    expect(ops).toContain('create_pull_request 1|pr feature');
    expect(ops.some((op: string) => op.startsWith('create_issue'))).toBe(false);
  });

  test('create refuses what Forgejo refuses', async () => {
    const full = await newRepo();
    await put(full, 'a.txt', 'a\n', { branch: 'topic', from: 'main' });
    expect((await open(full, 'topic')).status).toBe(201);
    const duplicate = await expectApiError(await open(full, 'topic'), 409, s.url);
    expect(duplicate).toMatch(/^pull request already exists for these targets/);
    expect(await expectApiError(await open(full, 'main', 'main'), 422, s.url)).toBe('Invalid PullRequest: There are no changes between the head and the base');
    await expectApiError(await open(full, 'no-such-branch'), 404, s.url);
    await expectApiError(await open(full, 'topic', 'no-such-base'), 404, s.url);
    await expectApiError(await open(full, `nobody-${uniq()}:topic`), 404, s.url);
    // A tag names a commit but is no branch.
    const tag = await s.fetch(`/api/v1/repos/${full}/tags`, jsonInit('POST', { tag_name: 'v1', target: 'topic' }, h));
    expect(tag.status).toBe(201);
    expect(await expectApiError(await open(full, 'v1'), 422, s.url)).toBe('Invalid PullRequest: base and head must be branches');
    // No title.
    await put(full, 'b.txt', 'b\n', { branch: 'untitled', from: 'main' });
    const untitled = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: 'untitled', base: 'main' }, h));
    expect(untitled.status).toBe(422);
    // Unauthenticated and read-only callers.
    expect((await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: 'untitled', base: 'main', title: 't' }))).status).toBe(401);
  });

  test('status: conflict and mergeable follow the branches; a push to the head synchronizes', async () => {
    const full = await newRepo();
    await put(full, 'README.md', 'from the branch\n', { branch: 'clash', from: 'main' });
    await put(full, 'README.md', 'from main\n', { branch: 'main' });
    const pr = await json(await open(full, 'clash'));
    expect(pr.mergeable).toBe(false);

    await put(full, 'ok.txt', 'fine\n', { branch: 'fine', from: 'main' });
    const fine = await json(await open(full, 'fine'));
    expect(fine.mergeable).toBe(true);

    // Pushed with the real client: the pull request's head follows, with a `pull_push` timeline event.
    const clone = path.join(scratch, uniq('c'));
    await git(['clone', '-q', `http://${owner}:${PASSWORD}@${s.url.replace(/^http:\/\//, '')}${full}.git`, clone], scratch);
    await git(['checkout', '-q', 'fine'], clone);
    await writeFile(path.join(clone, 'more.txt'), 'more\n');
    await git(['add', 'more.txt'], clone);
    await git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'more'], clone);
    await git(['push', '-q', 'origin', 'fine'], clone);
    const tip = (await git(['rev-parse', 'HEAD'], clone)).trim();
    // The head branch's tip shows at once (Forgejo's head.sha); the check of the new head follows after the push.
    await eventually(async () => (await json(await s.fetch(`/api/v1/repos/${full}/pulls/${fine.number}`, { headers: h }))).head.sha === tip);
    await eventually(async () => (await json(await s.fetch(`/api/v1/repos/${full}/pulls/${fine.number}`, { headers: h }))).changed_files === 2);
    const now = await json(await s.fetch(`/api/v1/repos/${full}/pulls/${fine.number}`, { headers: h }));
    expect(now).toMatchObject({ changed_files: 2, additions: 2, mergeable: true });
    const timeline = await json(await s.fetch(`/api/v1/repos/${full}/issues/${fine.number}/timeline`, { headers: h }));
    expect(timeline.some((e: { type: string }) => e.type === 'pull_push')).toBe(true);
    const commits = await s.fetch(`/api/v1/repos/${full}/pulls/${fine.number}/commits`, { headers: h });
    expect(commits.headers.get('x-total-count')).toBe('2');

    // A draft by its title is not mergeable.
    await put(full, 'w.txt', 'w\n', { branch: 'wip', from: 'main' });
    const wip = await json(await open(full, 'wip', 'main', 'WIP: not yet'));
    expect(wip).toMatchObject({ draft: true, mergeable: false });
    await mkdir(path.join(scratch, 'unused'), { recursive: true });
  });

  test('edit: title, body, state, base; the poster and writers only', async () => {
    const full = await newRepo();
    await put(full, 'x.txt', 'x\n', { branch: 'topic', from: 'main' });
    await put(full, 'y.txt', 'y\n', { branch: 'release', from: 'main' });
    const pr = await json(await open(full, 'topic'));
    const edited = await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { title: 'renamed', body: 'new body', base: 'release' }, h));
    expect(edited.status).toBe(201);
    const after = await json(edited);
    expect(schemaErrors(PullRequestSchema, after)).toEqual([]);
    expect(after).toMatchObject({ title: 'renamed', body: 'new body', base: { ref: 'release' } });
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { base: 'gone' }, h)), 404, s.url);
    const closed = await json(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'closed' }, h)));
    expect(closed.state).toBe('closed');
    expect(closed.closed_at).not.toBeNull();
    expect(await json(await s.fetch(`/api/v1/repos/${full}/pulls?state=open`, { headers: h }))).toEqual([]);
    const reopened = await json(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'open' }, h)));
    expect(reopened.state).toBe('open');
    const timeline = await json(await s.fetch(`/api/v1/repos/${full}/issues/${pr.number}/timeline`, { headers: h }));
    expect(timeline.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['change_title', 'change_target_branch', 'close', 'reopen']));

    // A reader (public repository) may read but not edit someone else's pull request.
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, { headers: readerH })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { title: 'mine' }, readerH))).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { title: 'mine' }))).status).toBe(401);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls/999`, { headers: h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls/abc`, { headers: h }), 404, s.url);
    // An issue number is no pull request.
    const issue = await json(await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title: 'plain issue' }, h)));
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls/${issue.number}`, { headers: h }), 404, s.url);
    void reader;
  });

  test('from a fork: head in the fork, its commits copied into the base, following pushes to the fork', async () => {
    const full = await newRepo();
    const forker = uniq('pf');
    await createUser(s.host, forker);
    const forkerH = tokenHeader(await createToken(s.host, forker));
    const forked = await s.fetch(`/api/v1/repos/${full}/forks`, jsonInit('POST', {}, forkerH));
    expect(forked.status).toBe(202);
    const fork = await json(forked);
    const forkFull = fork.full_name as string;
    const write = async (sha?: string) => {
      const res = await s.fetch(`/api/v1/repos/${forkFull}/contents/f.txt`, jsonInit(sha ? 'PUT' : 'POST', { content: b64(`fork ${sha ?? ''}\n`), branch: sha ? 'idea' : 'main', new_branch: sha ? undefined : 'idea', sha }, forkerH));
      expect(res.status).toBeLessThan(300);
      return json(res);
    };
    const first = await write();
    const res = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: `${forker}:idea`, base: 'main', title: 'from the fork' }, forkerH));
    expect(res.status).toBe(201);
    const pr = await json(res);
    expect(pr.head).toMatchObject({ label: `${forker}:idea`, ref: 'idea', sha: first.commit.sha, repo: { full_name: forkFull } });
    expect(pr.mergeable).toBe(true);
    const files = await json(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}/files`, { headers: h }));
    expect(files.map((f: { filename: string }) => f.filename)).toEqual(['f.txt']);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/main/${forker}:idea`, { headers: h })).status).toBe(200);

    // A commit in the fork moves the pull request's head in the base repository.
    const second = await write(first.content.sha);
    await eventually(async () => (await json(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, { headers: h }))).head.sha === second.commit.sha);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}.diff`, { headers: h })).status).toBe(TEST_GIT === 'native' ? 200 : 501);
    // Someone with no fork of the repository names nothing.
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: `${reader}:idea`, base: 'main', title: 't' }, readerH)), 404, s.url);
  });

  /** Every git call the server makes for `repoName` from now until `stop()` (white-box: counts the backend's methods). */
  function countGitCalls(repoName: string): { calls: string[]; stop(): void } {
    const git = s.host.git as unknown as Record<string, unknown>;
    const calls: string[] = [];
    const names = new Set<string>();
    for (let proto = Object.getPrototypeOf(git); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') names.add(name);
      }
    }
    // Calls the backend makes of itself (synchronously, within one of these) are not counted again.
    let inside = false;
    for (const name of names) {
      const original = git[name] as (...args: unknown[]) => unknown;
      git[name] = function (this: unknown, ...args: unknown[]) {
        if (inside) return original.apply(this, args);
        if (JSON.stringify(args).includes(repoName)) calls.push(name);
        inside = true;
        try {
          return original.apply(this, args);
        } finally {
          inside = false;
        }
      };
    }
    return { calls, stop: () => names.forEach((name) => delete git[name]) };
  }

  /** The branch's tip, or '' when it does not exist. */
  async function tipOrNone(full: string, branch: string): Promise<string> {
    const res = await s.fetch(`/api/v1/repos/${full}/branches/${branch}`, { headers: h });
    if (res.status === 404) return '';
    expect(res.status).toBe(200);
    return (await json(res)).commit.id;
  }

  /** The single view and the list item of pull request `number` show the same base and head as each other and as `expected`. */
  async function expectBranches(full: string, number: number, expected: { base: string; headSha: string; headRef: string }): Promise<void> {
    const single = await json(await s.fetch(`/api/v1/repos/${full}/pulls/${number}`, { headers: h }));
    const list = await s.fetch(`/api/v1/repos/${full}/pulls?state=all&limit=50`, { headers: h });
    expect(list.status).toBe(200);
    const item = (await json<{ number: number }[]>(list)).find((p) => p.number === number);
    for (const view of [single, item]) {
      expect(view, `pull ${number}`).toMatchObject({ base: { sha: expected.base }, head: { sha: expected.headSha, ref: expected.headRef } });
    }
  }

  test("base.sha, head.sha and head.ref follow every way a branch moves, in the list as in the single view (Forgejo's)", async () => {
    const full = await newRepo();
    await put(full, 't.txt', 'one\n', { branch: 'topic', from: 'main' });
    await put(full, 'r.txt', 'r\n', { branch: 'release', from: 'main' });
    await put(full, 'f.txt', 'f\n', { branch: 'fix', from: 'main' });
    const pr = await json(await open(full, 'topic'));
    const intoRelease = await json(await open(full, 'fix', 'release'));
    const expectTopic = async () => expectBranches(full, pr.number, { base: await tipOrNone(full, 'main'), headSha: await tipOrNone(full, 'topic'), headRef: 'topic' });
    await expectTopic();
    await expectBranches(full, intoRelease.number, { base: await tipOrNone(full, 'release'), headSha: await tipOrNone(full, 'fix'), headRef: 'fix' });

    // A push to the base: base.sha is the new tip as soon as the push is recorded.
    const oldMain = await tipOrNone(full, 'main');
    await put(full, 'm.txt', 'main moves\n', { branch: 'main' });
    expect(await tipOrNone(full, 'main')).not.toBe(oldMain);
    await expectTopic();

    // A push to the head, then a force-push back to the commit before it.
    const before = await tipOrNone(full, 'topic');
    await put(full, 't.txt', 'two\n', { branch: 'topic' });
    expect(await tipOrNone(full, 'topic')).not.toBe(before);
    await expectTopic();
    const forced = await s.fetch(`/api/v1/repos/${full}/branches/topic`, jsonInit('PUT', { new_commit_id: before, force: true }, h));
    expect(forced.status).toBe(204);
    expect(await tipOrNone(full, 'topic')).toBe(before);
    await expectTopic();
    // The pull request follows the forced head too (its check runs after the push).
    await eventually(async () => (await json(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}/commits`, { headers: h })))[0]?.sha === before);

    // A closed pull request still shows its head branch's tip (Forgejo reads the branch), though it no longer follows it.
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'closed' }, h))).status).toBe(201);
    await put(full, 't.txt', 'three\n', { branch: 'topic' });
    await expectTopic();
    // (Its handlers done while it is closed: reopened, it would follow the push.)
    await s.host.events.idle();
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'open' }, h))).status).toBe(201);
    await s.host.events.idle();

    // The head branch deleted: head.ref is the pull request's own ref and head.sha the commit that ref keeps (the
    // last it followed while open: `before`, as the push while it was closed was not followed).
    const ownHead = async () => (await json(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}/commits?limit=1`, { headers: h })))[0]?.sha;
    expect(await ownHead()).toBe(before);
    const lastTip = await tipOrNone(full, 'topic');
    expect((await s.fetch(`/api/v1/repos/${full}/branches/topic`, { method: 'DELETE', headers: h })).status).toBe(204);
    await expectBranches(full, pr.number, { base: await tipOrNone(full, 'main'), headSha: before, headRef: `refs/pull/${pr.number}/head` });
    // ... and back: the branch again.
    const recreated = await s.fetch(`/api/v1/repos/${full}/branches`, jsonInit('POST', { new_branch_name: 'topic', old_ref_name: lastTip }, h));
    expect(recreated.status).toBe(201);
    await expectTopic();

    // The base branch deleted: base.sha is empty (Forgejo finds no branch), in the list and the single view.
    expect((await s.fetch(`/api/v1/repos/${full}/branches/release`, { method: 'DELETE', headers: h })).status).toBe(204);
    await expectBranches(full, intoRelease.number, { base: '', headSha: await tipOrNone(full, 'fix'), headRef: 'fix' });
    // A retarget shows the new base's tip.
    const retargeted = await s.fetch(`/api/v1/repos/${full}/pulls/${intoRelease.number}`, jsonInit('PATCH', { base: 'main' }, h));
    expect(retargeted.status).toBe(201);
    expect((await json(retargeted)).base).toMatchObject({ ref: 'main', sha: await tipOrNone(full, 'main') });
    await expectBranches(full, intoRelease.number, { base: await tipOrNone(full, 'main'), headSha: await tipOrNone(full, 'fix'), headRef: 'fix' });

    // A merge (native git: the in-memory backend does not merge) that deletes its head branch: the merged pull
    // request shows the base's tip now and the head it merged; the other pull request into main the new tip too.
    if (TEST_GIT === 'native') {
      await s.host.events.idle();
      const mergedHead = await tipOrNone(full, 'fix');
      const merged = await s.fetch(`/api/v1/repos/${full}/pulls/${intoRelease.number}/merge`, jsonInit('POST', { Do: 'merge', delete_branch_after_merge: true }, h));
      expect(merged.status).toBe(200);
      expect(await tipOrNone(full, 'fix')).toBe('');
      const mainTip = await tipOrNone(full, 'main');
      await expectBranches(full, intoRelease.number, { base: mainTip, headSha: mergedHead, headRef: `refs/pull/${intoRelease.number}/head` });
      expect(await json(await s.fetch(`/api/v1/repos/${full}/pulls/${intoRelease.number}`, { headers: h }))).toMatchObject({ merged: true, merge_commit_sha: mainTip });
      await expectTopic();
    }
  });

  test('the list and the single view ask git nothing per pull request; tips not known yet are read once and kept', async () => {
    const full = await newRepo();
    const count = 6;
    for (let i = 0; i < count; i++) {
      await put(full, `n${i}.txt`, `${i}\n`, { branch: `b${i}`, from: 'main' });
      expect((await open(full, `b${i}`)).status).toBe(201);
    }
    await s.host.events.idle();
    // Work the pushes and openings queued (Actions' workflow detection reads trees) is done before git is counted.
    await s.host.jobs.runDue();
    await s.host.events.idle();
    const snapshot = async () => (await json<{ number: number; base: { sha: string }; head: { sha: string; ref: string } }[]>(await s.fetch(`/api/v1/repos/${full}/pulls?state=all`, { headers: h }))).map((p) => [p.number, p.base.sha, p.head.sha, p.head.ref]);
    const expected = await snapshot();
    expect(expected).toHaveLength(count);
    expect(expected.every(([, base, head]) => base !== '' && head !== '')).toBe(true);

    const counter = countGitCalls(full.split('/')[1]!);
    try {
      expect(await snapshot()).toEqual(expected);
      const single = await s.fetch(`/api/v1/repos/${full}/pulls/1`, { headers: h });
      expect(single.status).toBe(200);
      expect(counter.calls).toEqual([]);

      // Rows whose tips are unknown (written before tips were kept, or imported): the first view reads them from
      // git, once per branch, and stores them; the next asks nothing again.
      const db = (s.host as unknown as { ctx: { storage: { db: Kysely<any> } } }).ctx.storage.db;
      await db.updateTable('pull_request').set({ base_branch_commit_id: null, head_branch_commit_id: null }).execute();
      expect(await snapshot()).toEqual(expected);
      // One read per branch: main once for all, each head once (the backend's own calls within are not counted).
      const reads = counter.calls.filter((name) => name === 'resolveRevision').length;
      expect(reads).toBeGreaterThan(0);
      expect(reads).toBeLessThanOrEqual(count + 1);
      counter.calls.length = 0;
      expect(await snapshot()).toEqual(expected);
      expect(counter.calls).toEqual([]);
    } finally {
      counter.stop();
    }
  });

  // Native only: the branch is moved in the repository's folder behind the server's back.
  test.skipIf(TEST_GIT !== 'native')('a branch moved with no push recorded shows after the repository is resynced from its refs', async () => {
    const full = await newRepo();
    const [, name] = full.split('/') as [string, string];
    await put(full, 'x.txt', 'x\n', { branch: 'side', from: 'main' });
    const pr = await json(await open(full, 'side'));
    const mainBefore = await tipOrNone(full, 'main');
    const sideTip = await tipOrNone(full, 'side');
    await s.host.events.idle();
    // main is moved on disk to the head's commit (as a push that died after git moved the ref would leave it).
    const folder = (s.host.git as unknown as { pathOf(key: { owner: string; name: string }): string }).pathOf({ owner, name });
    await git(['--git-dir', folder, 'update-ref', 'refs/heads/main', sideTip, mainBefore], scratch);
    // Nothing recorded it: the stored tip still shows (what the repair is for).
    expect((await json(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, { headers: h }))).base.sha).toBe(mainBefore);
    const access = await s.host.repos.resolve(SYSTEM, owner, name);
    const intent = await s.host.repos.beginPush(access);
    await s.host.repos.resyncFromRefs(access.repo, { owner, name }, intent);
    await expectBranches(full, pr.number, { base: sideTip, headSha: sideTip, headRef: 'side' });
  });

  test('a private repository hides its pull requests from strangers and anonymous callers', async () => {
    const full = await newRepo({ private: true });
    await put(full, 'p.txt', 'p\n', { branch: 'secret', from: 'main' });
    const pr = await json(await open(full, 'secret'));
    for (const headers of [strangerH, {}]) {
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls`, { headers }), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, { headers }), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}.diff`, { headers }), 404, s.url);
    }
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, { headers: { authorization: basic(owner, PASSWORD) } })).status).toBe(200);
  });

  test('list filters: an empty value is no filter (as clients send it); labels by id; a bad value is 422', async () => {
    const full = await newRepo();
    await put(full, 'l.txt', 'l\n', { branch: 'labelled', from: 'main' });
    await put(full, 'u.txt', 'u\n', { branch: 'unlabelled', from: 'main' });
    const labelled = await json(await open(full, 'labelled'));
    expect((await open(full, 'unlabelled')).status).toBe(201);
    const label = await json(await s.fetch(`/api/v1/repos/${full}/labels`, jsonInit('POST', { name: 'bug', color: '#ff0000' }, h)));
    expect((await s.fetch(`/api/v1/repos/${full}/issues/${labelled.number}/labels`, jsonInit('POST', { labels: [label.id] }, h))).status).toBe(200);
    const titles = async (query: string) => {
      const res = await s.fetch(`/api/v1/repos/${full}/pulls?${query}`, { headers: h });
      expect(res.status, query).toBe(200);
      return (await json<{ title: string }[]>(res)).map((p) => p.title).sort();
    };
    expect(await titles('labels=')).toEqual(['pr labelled', 'pr unlabelled']);
    expect(await titles('labels=&state=&sort=&milestone=&poster=&base=&head=')).toEqual(['pr labelled', 'pr unlabelled']);
    expect(await titles(`labels=${label.id}`)).toEqual(['pr labelled']);
    expect(await titles(`labels=&labels=${label.id}`)).toEqual(['pr labelled']);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls?labels=bug`, { headers: h }), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/pulls?state=bogus`, { headers: h }), 422, s.url);
  });
});
