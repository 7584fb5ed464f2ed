/**
 * Content migration from another instance by its API (`importRepositoryContent`): a RepoHost server plays the
 * remote Gitea/Forgejo instance, a second host imports labels, milestones, issues with comments, a pull request
 * and a release with an asset into a repository whose git data the test fetched itself, and the result is compared
 * through the importing host's API. Unhappy remotes (500s, a hang, a redirect to a refused address, garbage JSON)
 * fail the import with a clear message that holds no credentials.
 */
import { execFile } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  CommentSchema,
  IssueSchema,
  PullRequestSchema,
  ReleaseSchema,
  SYSTEM,
  importRepositoryContent,
  matchesSchema,
  schemaErrors,
  type CoreContext,
  type ImportItems,
  type ImportRepositoryContentInput,
  type ImportStep,
  type Repository,
  type User,
} from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, TEST_GIT, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { checkRemoteAddress, type CheckedRemote } from '../../core/src/remote/remote.js';
import { json } from './helpers';

const ALL: ImportItems = { issues: true, labels: true, milestones: true, releases: true, pull_requests: true, comments: true, wiki: false };
const b64 = (text: string) => Buffer.from(text).toString('base64');

function contextOf(s: TestServer): CoreContext {
  return (s.host as unknown as { ctx: CoreContext }).ctx;
}

function checked<T>(schema: Parameters<typeof matchesSchema>[0], value: T): T {
  expect(matchesSchema(schema, value), schemaErrors(schema, value).join('\n')).toBe(true);
  return value;
}

describe.skipIf(TEST_GIT === 'memory')('migrating content from a Gitea/Forgejo/RepoHost instance', () => {
  let remote: TestServer;
  let local: TestServer;
  let scratch: string;
  let aliceH: Record<string, string>;
  let bobH: Record<string, string>;
  let aliceToken: string;
  let bobRemoteId: number;
  let aliceRemoteId: number;
  let remoteHead: string;
  let remoteReviewComments: { diff_hunk: string; commit_id: string }[];
  let forkPull: { number: number; head: { sha: string } };
  let mergedPull: { merged: boolean; merge_commit_sha: string; merged_at: string; head: { sha: string } };
  const asset = randomBytes(150_000);

  function git(args: string[], cwd = scratch): Promise<string> {
    return new Promise((resolve, reject) => {
      const env = { PATH: process.env.PATH, HOME: scratch, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
      execFile('git', args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
        else resolve(String(stdout));
      });
    });
  }

  async function ok<T = any>(res: Response, status = 201): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const rpost = (p: string, body: unknown, h = aliceH) => remote.fetch(`/api/v1/repos/alice/src${p}`, jsonInit('POST', body, h));
  const rpatch = (p: string, body: unknown, h = aliceH) => remote.fetch(`/api/v1/repos/alice/src${p}`, jsonInit('PATCH', body, h));

  /** A repository on the importing host with the remote's git data fetched into it, as the migration's clone leaves it. */
  async function targetRepo(doer: User, name: string, refspecs = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*', '+refs/pull/*:refs/pull/*']): Promise<{ repo: Repository; owner: User }> {
    const token = await createToken(local.host, doer.name);
    await ok(await local.fetch('/api/v1/user/repos', jsonInit('POST', { name }, tokenHeader(token))));
    const dir = path.join(local.host.settings.repository.ROOT, doer.lower_name, `${name.toLowerCase()}.git`);
    await git(['fetch', '--quiet', `${remote.url}alice/src.git`, ...refspecs], dir);
    const repo = (await local.host.repos.resolve(SYSTEM, doer.name, name)).repo;
    return { repo, owner: doer };
  }

  async function remoteOf(url: string, credentials?: { username: string; password: string }): Promise<CheckedRemote> {
    return checkRemoteAddress(local.host.settings, SYSTEM, { address: url, ...credentials });
  }

  function input(over: Partial<ImportRepositoryContentInput> & Pick<ImportRepositoryContentInput, 'repo' | 'owner' | 'doer' | 'remote'>): ImportRepositoryContentInput {
    return { sourceOwner: 'alice', sourceName: 'src', items: ALL, progress: async () => {}, signal: new AbortController().signal, ...over };
  }

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-migrate-gitea-'));
    // Small pages on the remote: every list the importer reads spans several.
    remote = await startTestServer({ api: { MAX_RESPONSE_ITEMS: 2, DEFAULT_PAGING_NUM: 2 } });
    local = await startTestServer({ migrations: { ALLOW_LOCALNETWORKS: true, MAX_ATTEMPTS: 2, RETRY_BACKOFF: 0, BLOCKED_DOMAINS: '10.0.0.0/8' }, 'git.timeout': { MIGRATE: 3 } });

    // The remote: alice (an account of that name exists on the importing side too, but is someone else) and bob.
    aliceRemoteId = (await createUser(remote.host, 'alice')).id;
    const bob = await createUser(remote.host, 'bob');
    bobRemoteId = bob.id;
    aliceToken = await createToken(remote.host, 'alice');
    aliceH = tokenHeader(aliceToken);
    bobH = tokenHeader(await createToken(remote.host, 'bob'));
    await ok(await remote.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'src', auto_init: true, default_branch: 'main' }, aliceH)));

    await ok(await remote.fetch('/api/v1/repos/alice/src/collaborators/bob', jsonInit('PUT', { permission: 'write' }, aliceH)), 204);
    const bug = await ok(await rpost('/labels', { name: 'bug', color: '#ee0701', description: 'broken' }));
    await ok(await rpost('/labels', { name: 'scope/a', color: 'abc', exclusive: true }));
    const v1 = await ok(await rpost('/milestones', { title: 'v1', description: 'first', due_on: '2030-01-02T03:04:05Z' }));
    const v0 = await ok(await rpost('/milestones', { title: 'v0' }));
    await ok(await rpatch(`/milestones/${v0.id}`, { state: 'closed' }), 200);

    // #1 by alice, commented by alice, bob, alice; #2 by bob, closed.
    await ok(await rpost('/issues', { title: 'First issue', body: 'body one', labels: [bug.id], milestone: v1.id, assignees: ['alice', 'bob'] }));
    for (const [body, h] of [['c1 by alice', aliceH], ['c2 by bob', bobH], ['c3 by alice', aliceH]] as const) await ok(await rpost('/issues/1/comments', { body }, h));
    const c2 = (await ok<any[]>(await remote.fetch('/api/v1/repos/alice/src/issues/1/comments', { headers: aliceH }), 200)).find((c) => c.body === 'c2 by bob');
    await ok(await rpost('/issues/1/reactions', { content: '+1' }, bobH));
    await ok(await rpost('/issues/1/reactions', { content: 'heart' }, aliceH));
    await ok(await rpost(`/issues/comments/${c2.id}/reactions`, { content: 'laugh' }, aliceH));
    await ok(await rpost('/issues', { title: 'Second issue', body: 'from bob' }, bobH));
    await ok(await rpatch('/issues/2', { state: 'closed' }, aliceH), 201);

    // #3: a pull request from a branch, commented by bob.
    await ok(await rpost('/contents/feature.txt', { content: b64('feature\n'), branch: 'main', new_branch: 'feature', message: 'add feature' }));
    const pull = await ok(await rpost('/pulls', { head: 'feature', base: 'main', title: 'Add the feature', body: 'please merge', labels: [bug.id] }));
    remoteHead = pull.head.sha;
    await ok(await rpost('/issues/3/comments', { body: 'looks good' }, bobH));
    const review = await ok(await rpost('/pulls/3/reviews', { event: 'REQUEST_CHANGES', body: 'please fix', comments: [{ path: 'feature.txt', body: 'this line', new_position: 1 }] }, bobH), 200);
    remoteReviewComments = await ok(await remote.fetch(`/api/v1/repos/alice/src/pulls/3/reviews/${review.id}/comments`, { headers: aliceH }), 200);
    expect(remoteReviewComments.length).toBe(1);
    // #4 after the pull request: numbers interleave. #5: a pull request merged on the remote.
    await ok(await rpost('/issues', { title: 'Fourth', body: '' }, bobH));
    await ok(await rpost('/contents/done.txt', { content: b64('done\n'), branch: 'main', new_branch: 'done', message: 'add done' }));
    await ok(await rpost('/pulls', { head: 'done', base: 'main', title: 'Done already' }));
    expect((await rpost('/pulls/5/merge', { Do: 'merge' })).status).toBe(200);
    mergedPull = await ok(await remote.fetch('/api/v1/repos/alice/src/pulls/5', { headers: aliceH }), 200);
    expect(mergedPull.merged).toBe(true);

    // #6: a pull request from bob's fork.
    await ok(await remote.fetch('/api/v1/repos/alice/src/forks', jsonInit('POST', {}, bobH)), 202);
    await ok(await remote.fetch('/api/v1/repos/bob/src/contents/fix.txt', jsonInit('POST', { content: b64('fix\n'), branch: 'main', new_branch: 'fix', message: 'fix' }, bobH)));
    forkPull = await ok(await rpost('/pulls', { head: 'bob:fix', base: 'main', title: 'Fix from a fork' }, bobH));
    expect(forkPull.number).toBe(6);

    const release = await ok(await rpost('/releases', { tag_name: 'v1.0', target_commitish: 'main', name: 'Version 1', body: 'notes', prerelease: true }));
    const form = new FormData();
    form.append('attachment', new Blob([asset]), 'tool.bin');
    await ok(await remote.fetch(`/api/v1/repos/alice/src/releases/${release.id}/assets`, { method: 'POST', headers: aliceH, body: form }));
    const link = encodeURIComponent('https://downloads.example.com/tool-1.0.tar.gz');
    await ok(await remote.fetch(`/api/v1/repos/alice/src/releases/${release.id}/assets?external_url=${link}`, { method: 'POST', headers: aliceH }));
    await ok(await rpost('/releases', { tag_name: 'v2.0', target_commitish: 'main', name: 'Draft', draft: true }));

    await createUser(local.host, 'alice');
    await createUser(local.host, 'mig', { admin: true });
  }, 120_000);

  afterAll(async () => {
    await local?.cleanup();
    await remote?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  test('labels, milestones, issues with comments, a pull request and a release arrive as they were', async () => {
    const doer = await userNamed(local.host, 'mig');
    const { repo, owner } = await targetRepo(doer, 'dst');
    const steps = new Map<ImportStep, [number, number]>();
    await importRepositoryContent(
      contextOf(local),
      input({ repo, owner, doer, remote: await remoteOf(remote.url), token: aliceToken, progress: async (step, done, total) => void steps.set(step, [done, total]) }),
    );
    expect(Object.fromEntries(steps)).toEqual({ milestones: [2, 2], labels: [2, 2], releases: [2, 2], issues: [3, 3], comments: [4, 4], pull_requests: [3, 3] });

    const h = tokenHeader(await createToken(local.host, 'mig'));
    const get = async <T = any>(p: string) => ok<T>(await local.fetch(`/api/v1/repos/mig/dst${p}`, { headers: h }), 200);
    const localAlice = await userNamed(local.host, 'alice');

    const labels = await get<any[]>('/labels');
    expect(labels.map((l) => [l.name, l.color, l.description, l.exclusive])).toEqual([
      ['bug', 'ee0701', 'broken', false],
      ['scope/a', 'aabbcc', '', true],
    ]);
    const milestones = await get<any[]>('/milestones?state=all');
    expect(milestones.map((m) => [m.title, m.state, m.open_issues, m.due_on])).toEqual(
      expect.arrayContaining([
        ['v1', 'open', 1, '2030-01-02T03:04:05Z'],
        ['v0', 'closed', 0, null],
      ]),
    );

    const issues = (await get<any[]>('/issues?state=all&type=issues&sort=oldest')).map((i) => checked(IssueSchema, i));
    expect(issues.map((i) => [i.number, i.title, i.state, i.user.login, i.original_author, i.original_author_id])).toEqual([
      [1, 'First issue', 'open', 'Ghost', 'alice', aliceRemoteId],
      [2, 'Second issue', 'closed', 'Ghost', 'bob', bobRemoteId],
      [4, 'Fourth', 'open', 'Ghost', 'bob', bobRemoteId],
    ]);
    const first = issues[0]!;
    // Another instance's alice is not this instance's alice (Forgejo's remapUser): no account is taken over.
    expect(first.user.id).not.toBe(localAlice.id);
    expect(first.body).toBe('body one');
    expect(first.labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
    expect(first.milestone.title).toBe('v1');
    // Nobody of another instance is assigned here.
    expect(first.assignees ?? []).toEqual([]);
    expect(first.comments).toBe(3);
    expect(issues[1]!.closed_at).not.toBeNull();

    const comments = (await get<any[]>('/issues/1/comments')).map((c) => checked(CommentSchema, c));
    expect(comments.map((c) => [c.body, c.user.login, c.original_author])).toEqual([
      ['c1 by alice', 'Ghost', 'alice'],
      ['c2 by bob', 'Ghost', 'bob'],
      ['c3 by alice', 'Ghost', 'alice'],
    ]);
    expect(comments[1]!.original_author_id).toBe(bobRemoteId);
    const reactions = await get<any[]>('/issues/1/reactions');
    expect(reactions.map((r) => [r.content, r.user.login]).sort()).toEqual([['+1', 'Ghost'], ['heart', 'Ghost']]);
    expect((await get<any[]>(`/issues/comments/${comments[1]!.id}/reactions`)).map((r) => [r.content, r.user.login])).toEqual([['laugh', 'Ghost']]);

    const pull = checked(PullRequestSchema, await get('/pulls/3'));
    expect(pull).toMatchObject({ number: 3, title: 'Add the feature', state: 'open', merged: false, body: 'please merge', comments: 1 });
    expect(pull.head.sha).toBe(remoteHead);
    expect(pull.base.ref).toBe('main');
    expect(pull.labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
    expect(pull.mergeable).toBe(true);
    const pullComments = await get<any[]>('/issues/3/comments');
    expect(pullComments.map((c) => [c.body, c.original_author])).toEqual([['looks good', 'bob']]);
    const reviews = await get<any[]>('/pulls/3/reviews');
    expect(reviews.map((r) => [r.state, r.body, r.user.login, r.comments_count])).toEqual([['REQUEST_CHANGES', 'please fix', 'Ghost', 1]]);
    const codeComments = await get<any[]>(`/pulls/3/reviews/${reviews[0].id}/comments`);
    expect(codeComments.map((c) => [c.path, c.body, c.position, c.diff_hunk, c.commit_id])).toEqual([
      ['feature.txt', 'this line', 1, remoteReviewComments[0]!.diff_hunk, remoteReviewComments[0]!.commit_id],
    ]);
    const merged = checked(PullRequestSchema, await get('/pulls/5'));
    expect(merged).toMatchObject({ number: 5, state: 'closed', merged: true, merge_commit_sha: mergedPull.merge_commit_sha, merged_at: mergedPull.merged_at });
    expect(merged.head.sha).toBe(mergedPull.head.sha);
    expect(merged.merged_by.login).toBe('mig');
    const fromFork = checked(PullRequestSchema, await get('/pulls/6'));
    expect(fromFork).toMatchObject({ title: 'Fix from a fork', state: 'open', merged: false, mergeable: true });
    expect(fromFork.head).toMatchObject({ sha: forkPull.head.sha, label: 'bob/fix', ref: 'refs/pull/6/head' });
    expect(fromFork.user).toMatchObject({ login: 'Ghost' });
    expect((await get<any[]>('/pulls?state=all')).map((p) => p.number).sort()).toEqual([3, 5, 6]);

    const releases = (await get<any[]>('/releases')).map((r) => checked(ReleaseSchema, r));
    const v1 = releases.find((r) => r.tag_name === 'v1.0')!;
    expect(v1).toMatchObject({ name: 'Version 1', body: 'notes', prerelease: true, draft: false, target_commitish: 'main' });
    expect(v1.author.login).toBe('Ghost');
    expect(v1.assets.map((a: any) => [a.name, a.size, a.type])).toEqual([
      ['tool-1.0.tar.gz', 0, 'external'],
      ['tool.bin', asset.length, 'attachment'],
    ]);
    // A link stays a link (nothing fetched from a third place); a file is copied into this host's storage.
    expect(v1.assets[0].browser_download_url).toBe('https://downloads.example.com/tool-1.0.tar.gz');
    expect(v1.assets[1].browser_download_url.startsWith(local.url)).toBe(true);
    const download = await local.fetch(v1.assets[1].browser_download_url.replace(local.url, '/'));
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(asset)).toBe(true);
    expect(releases.find((r) => r.tag_name === 'v2.0')).toMatchObject({ draft: true, name: 'Draft' });

    // The repository's counters and its index sequence follow: the next issue is #5.
    const info = await ok<any>(await local.fetch('/api/v1/repos/mig/dst', { headers: h }), 200);
    expect(info.open_issues_count).toBe(2);
    expect(info.open_pr_counter).toBe(2);
    expect(info.release_counter).toBe(1);
    const next = await ok<any>(await local.fetch('/api/v1/repos/mig/dst/issues', jsonInit('POST', { title: 'after the import' }, h)));
    expect(next.number).toBe(7);

    // A second run (the job retried) writes nothing twice.
    await importRepositoryContent(contextOf(local), input({ repo, owner, doer, remote: await remoteOf(remote.url), token: aliceToken }));
    expect((await get<any[]>('/issues?state=all&type=issues')).length).toBe(4);
    expect((await get<any[]>('/pulls?state=all')).length).toBe(3);
    expect((await get<any[]>('/issues/1/comments')).length).toBe(3);
    expect((await get<any[]>('/labels')).length).toBe(2);
    expect((await get<any[]>('/releases')).length).toBe(2);
  });

  test('from this very instance, authors and assignees stay the accounts they are', async () => {
    const alice = await userNamed(local.host, 'alice');
    const aliceLocal = tokenHeader(await createToken(local.host, 'alice'));
    await ok(await local.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'src', auto_init: true }, aliceLocal)));
    await ok(await local.fetch('/api/v1/repos/alice/src/issues', jsonInit('POST', { title: 'Mine', assignees: ['alice'] }, aliceLocal)));
    await ok(await local.fetch('/api/v1/repos/alice/src/issues/1/comments', jsonInit('POST', { body: 'still mine' }, aliceLocal)));
    const doer = await userNamed(local.host, 'mig');
    const token = await createToken(local.host, doer.name);
    await ok(await local.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'copy' }, tokenHeader(token))));
    const repo = (await local.host.repos.resolve(SYSTEM, doer.name, 'copy')).repo;
    expect(local.url).toBe(local.host.settings.server.ROOT_URL);
    await importRepositoryContent(contextOf(local), input({ repo, owner: doer, doer, remote: await remoteOf(local.url), items: { ...ALL, pull_requests: false, releases: false } }));
    const get = async <T = any>(p: string) => ok<T>(await local.fetch(`/api/v1/repos/mig/copy${p}`, { headers: tokenHeader(token) }), 200);
    const [issue] = await get<any[]>('/issues?state=all');
    expect([issue.user.id, issue.original_author, issue.assignees.map((a: { login: string }) => a.login)]).toEqual([alice.id, '', ['alice']]);
    const comments = await get<any[]>('/issues/1/comments');
    expect(comments.map((c) => [c.user.login, c.original_author])).toEqual([['alice', '']]);
  });

  test('only what was asked for is imported; without a token the remote shows what anyone sees', async () => {
    const doer = await userNamed(local.host, 'mig');
    const { repo, owner } = await targetRepo(doer, 'partial');
    await importRepositoryContent(contextOf(local), input({ repo, owner, doer, remote: await remoteOf(remote.url), items: { ...ALL, issues: false, pull_requests: false, labels: false } }));
    const h = tokenHeader(await createToken(local.host, 'mig'));
    const get = async <T = any>(p: string) => ok<T>(await local.fetch(`/api/v1/repos/mig/partial${p}`, { headers: h }), 200);
    expect(await get<any[]>('/labels')).toEqual([]);
    expect(await get<any[]>('/issues?state=all')).toEqual([]);
    expect((await get<any[]>('/milestones?state=all')).length).toBe(2);
    // Anonymous readers of the remote do not see the draft.
    expect((await get<any[]>('/releases')).map((r) => r.tag_name)).toEqual(['v1.0']);
  });

  test('through POST /repos/migrate (service gitea): git data and content in one go, by the job', async () => {
    const h = tokenHeader(await createToken(local.host, 'mig'));
    const options = { clone_addr: `${remote.url}alice/src.git`, repo_name: 'viaapi', service: 'gitea', auth_token: aliceToken, issues: true, labels: true, milestones: true, releases: true, pull_requests: true };
    const res = await local.fetch('/api/v1/repos/migrate', jsonInit('POST', options, h));
    const repo = await ok<any>(res, 201);
    expect(repo).toMatchObject({ name: 'viaapi', empty: false });
    const get = async <T = any>(p: string) => ok<T>(await local.fetch(`/api/v1/repos/mig/viaapi${p}`, { headers: h }), 200);
    const issues = await get<any[]>('/issues?state=all&type=issues&sort=oldest');
    expect(issues.map((i) => [i.number, i.title, i.original_author])).toEqual([
      [1, 'First issue', 'alice'],
      [2, 'Second issue', 'bob'],
      [4, 'Fourth', 'bob'],
    ]);
    expect((await get<any[]>('/issues/1/comments')).map((c) => c.body)).toEqual(['c1 by alice', 'c2 by bob', 'c3 by alice']);
    const pulls = await get<any[]>('/pulls?state=all');
    expect(Object.fromEntries(pulls.map((p) => [p.number, p.head.sha]))).toEqual({ 3: remoteHead, 5: mergedPull.head.sha, 6: forkPull.head.sha });
    const v1 = (await get<any[]>('/releases')).find((r) => r.tag_name === 'v1.0');
    const file = v1.assets.find((a: { type: string }) => a.type === 'attachment');
    const download = await local.fetch(file.browser_download_url.replace(local.url, '/'));
    expect(Buffer.from(await download.arrayBuffer()).equals(asset)).toBe(true);
    // An import that fails removes the repository and says why (the migration job's rule).
    const failed = await local.fetch('/api/v1/repos/migrate', jsonInit('POST', { ...options, repo_name: 'viaapi2', auth_token: 'not-a-token' }, h));
    expect(failed.status).toBe(422);
    const why = (await json<{ message: string }>(failed)).message;
    expect(why).toMatch(/answered 401/);
    expect(why).not.toContain('not-a-token');
    expect((await local.fetch('/api/v1/repos/mig/viaapi2', { headers: h })).status).toBe(404);
  });

  test("pull request heads come from the remote's refs/pull; one found nowhere is still imported, without a head", async () => {
    // The clone brought main only; the remote lost #3's head ref (its branch stays, but the clone did not take it).
    await git(['update-ref', '-d', 'refs/pull/3/head'], path.join(remote.host.settings.repository.ROOT, 'alice', 'src.git'));
    const doer = await userNamed(local.host, 'mig');
    const { repo, owner } = await targetRepo(doer, 'headless', ['+refs/heads/main:refs/heads/main']);
    await importRepositoryContent(contextOf(local), input({ repo, owner, doer, remote: await remoteOf(remote.url), token: aliceToken, items: { ...ALL, releases: false } }));
    const h = tokenHeader(await createToken(local.host, 'mig'));
    const get = async <T = any>(p: string) => ok<T>(await local.fetch(`/api/v1/repos/mig/headless${p}`, { headers: h }), 200);
    const headless = checked(PullRequestSchema, await get('/pulls/3'));
    expect(headless).toMatchObject({ number: 3, state: 'open', merged: false, mergeable: false });
    expect(headless.head.sha).toBe('');
    expect((await local.fetch('/api/v1/repos/mig/headless/pulls/3.diff', { headers: h })).status).toBeLessThan(500);
    // The fork's head came with the remote's refs/pull/6/head; the merged one's commits are in main.
    expect((await get('/pulls/6')).head.sha).toBe(forkPull.head.sha);
    expect((await get('/pulls/5')).head.sha).toBe(mergedPull.head.sha);
  });

  describe('unhappy remotes', () => {
    let fake: http.Server;
    let fakeUrl: string;
    let handler: (req: IncomingMessage, res: ServerResponse) => void = () => {};
    const seen: string[] = [];

    beforeAll(async () => {
      fake = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
        handler(req, res);
      });
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
      fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/`;
    });

    afterAll(async () => {
      fake.closeAllConnections();
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    });

    async function importFrom(options: { credentials?: { username: string; password: string }; token?: string; signal?: AbortSignal } = {}): Promise<string> {
      const doer = await userNamed(local.host, 'mig');
      const { repo, owner } = await targetRepo(doer, `bad${randomBytes(3).toString('hex')}`);
      seen.length = 0;
      const error = await importRepositoryContent(
        contextOf(local),
        input({ repo, owner, doer, remote: await remoteOf(fakeUrl, options.credentials), token: options.token, signal: options.signal ?? new AbortController().signal }),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).name).toBe('MigrationError');
      return (error as Error).message;
    }

    /** Answers the settings and repository reads as a remote would, and `other` for everything else. */
    function remoteWith(other: (req: IncomingMessage, res: ServerResponse) => void) {
      return (req: IncomingMessage, res: ServerResponse) => {
        if (req.url?.startsWith('/api/v1/settings/api')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"max_response_items":50}');
        if (req.url === '/api/v1/repos/alice/src') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1}');
        other(req, res);
      };
    }

    test('a remote answering 500 is asked MAX_ATTEMPTS times, then the import fails saying so', async () => {
      handler = remoteWith((_req, res) => void res.writeHead(500).end('boom'));
      const message = await importFrom();
      expect(message).toMatch(/milestones failed after 2 attempts: answered 500/);
      expect(seen.filter((line) => line.includes('/milestones')).length).toBe(2);
    });

    test('a hanging remote times out (bounded by [git.timeout] MIGRATE) and the import fails', async () => {
      handler = remoteWith(() => {});
      const started = Date.now();
      const message = await importFrom();
      expect(message).toMatch(/timed out/);
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    test('a redirect to a refused address is not followed', async () => {
      handler = remoteWith((_req, res) => void res.writeHead(302, { location: 'http://10.1.2.3/api/v1/repos/alice/src/milestones' }).end());
      const message = await importFrom();
      expect(message).toMatch(/redirected to a refused address/);
    });

    test('a redirect within the remote is followed', async () => {
      handler = remoteWith((req, res) => {
        if (req.url?.startsWith('/moved/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('not json {');
        res.writeHead(301, { location: `/moved${req.url}` }).end();
      });
      const message = await importFrom();
      expect(message).toMatch(/did not answer JSON/);
      expect(seen.some((line) => line.startsWith('GET /moved/api/v1/repos/alice/src/milestones'))).toBe(true);
    });

    test('garbage or unexpected JSON fails the import with a clear message, credentials never shown', async () => {
      handler = remoteWith((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"not":"a list"}'));
      const message = await importFrom({ credentials: { username: 'someone', password: 'hunter2-secret' } });
      expect(message).toMatch(/unexpected milestone list/);
      expect(seen.some((line) => line.includes('Basic '))).toBe(true);

      handler = remoteWith((req, res) => {
        if (req.url?.includes('/milestones')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('[{"title":7}]');
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"token tok-secret-123 rejected"}');
      });
      const shape = await importFrom({ token: 'tok-secret-123' });
      expect(shape).toMatch(/unexpected milestone \(page 1, item 1\): title is not a string/);
      expect(seen.some((line) => line.includes('token tok-secret-123'))).toBe(true);

      handler = remoteWith((_req, res) => void res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"no access for hunter2-secret"}'));
      const refused = await importFrom({ credentials: { username: 'someone', password: 'hunter2-secret' } });
      expect(refused).toMatch(/answered 403/);
      expect(refused).not.toContain('hunter2-secret');
    });

    test('lists the remote does not have (404: a unit turned off) are empty, not a failure', async () => {
      handler = remoteWith((_req, res) => void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}'));
      const doer = await userNamed(local.host, 'mig');
      const { repo, owner } = await targetRepo(doer, 'nounits');
      seen.length = 0;
      await importRepositoryContent(contextOf(local), input({ repo, owner, doer, remote: await remoteOf(fakeUrl) }));
      for (const list of ['milestones', 'labels', 'releases', 'issues', 'pulls']) expect(seen.some((line) => line.includes(`/alice/src/${list}?`))).toBe(true);
      const h = tokenHeader(await createToken(local.host, 'mig'));
      expect(await ok<any[]>(await local.fetch('/api/v1/repos/mig/nounits/issues?state=all', { headers: h }), 200)).toEqual([]);
    });

    test('release assets stream into storage: a large one arrives whole, one cut short fails the import and leaves no file', async () => {
      const attachmentsDir = path.join(local.host.settings.server.APP_DATA_PATH, 'attachments');
      const filesIn = async (dir: string): Promise<number> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        let n = 0;
        for (const entry of entries) n += entry.isDirectory() ? await filesIn(path.join(dir, entry.name)) : 1;
        return n;
      };
      const big = randomBytes(3 * 1024 * 1024 + 17);
      const releaseWith = (assetPath: string) => [
        {
          tag_name: 'v1.0',
          name: 'Big',
          author: { id: 5, login: 'carol' },
          created_at: '2026-01-02T03:04:05Z',
          assets: [{ name: 'big.bin', size: big.length, download_count: 0, created_at: '2026-01-02T03:04:05Z', browser_download_url: `${fakeUrl}${assetPath}` }],
        },
      ];
      const serve = (cut: boolean) =>
        remoteWith((req, res) => {
          const url = new URL(req.url ?? '/', fakeUrl);
          if (url.pathname.endsWith('/releases') && url.searchParams.get('page') === '1') {
            return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(releaseWith(cut ? 'files/cut.bin' : 'files/big.bin')));
          }
          if (url.pathname === '/files/big.bin') {
            res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(big.length) });
            // In pieces, as a large file arrives.
            for (let at = 0; at < big.length; at += 256 * 1024) res.write(big.subarray(at, at + 256 * 1024));
            return void res.end();
          }
          if (url.pathname === '/files/cut.bin') {
            res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(big.length) });
            res.write(big.subarray(0, 100_000));
            return void setTimeout(() => req.socket.destroy(), 50);
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
        });

      handler = serve(false);
      const doer = await userNamed(local.host, 'mig');
      const { repo, owner } = await targetRepo(doer, 'bigasset');
      await importRepositoryContent(contextOf(local), input({ repo, owner, doer, remote: await remoteOf(fakeUrl), items: { ...ALL, issues: false, pull_requests: false, labels: false, milestones: false } }));
      const h = tokenHeader(await createToken(local.host, 'mig'));
      const [release] = await ok<any[]>(await local.fetch('/api/v1/repos/mig/bigasset/releases', { headers: h }), 200);
      expect(release.assets.map((a: { name: string; size: number }) => [a.name, a.size])).toEqual([['big.bin', big.length]]);
      const download = await local.fetch(release.assets[0].browser_download_url.replace(local.url, '/'));
      expect(Buffer.from(await download.arrayBuffer()).equals(big)).toBe(true);

      handler = serve(true);
      const before = await filesIn(attachmentsDir);
      expect(await importFrom()).toMatch(/files\/cut\.bin: (aborted|the download was cut short)/);
      expect(await filesIn(attachmentsDir)).toBe(before);
    });

    test('a missing remote repository, and a stopped job, fail at once', async () => {
      handler = (req, res) => void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      expect(await importFrom()).toMatch(/remote repository does not exist/);

      handler = remoteWith(() => {});
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      expect(await importFrom({ signal: controller.signal })).toMatch(/stopped/);
    });
  });
});

