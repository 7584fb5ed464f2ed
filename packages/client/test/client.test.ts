/**
 * `@repohost/client` against a started server (SQLite or PostgreSQL, native git): one or more calls of every route
 * group through the generated methods, the error classes, pagination over `Link`/`X-Total-Count`, every kind of
 * credentials (token, basic, basic with `X-Forgejo-OTP`, bearer, sudo), raw answers and a multipart upload.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { userActor } from '@repohost/core';
import {
  ApiError,
  ConflictError,
  type ApiErrorBody,
  ForbiddenError,
  NotFoundError,
  RepoHostClient,
  UnauthorizedError,
  ValidationError,
  type Repository,
} from '@repohost/client';
import { PASSWORD, createToken, createUser, startTestServer, totp, totpStep, type TestServer } from '@repohost/test-support';

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** The error a call rejects with (it must reject). */
async function failure(call: PromiseLike<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('the call succeeded');
}

describe('@repohost/client against a started server', () => {
  let s: TestServer;
  /** The site administrator `alice`, by token; every call counted. */
  let alice: RepoHostClient;
  let calls: string[];
  let repo: Repository;

  beforeAll(async () => {
    s = await startTestServer({ security: { LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000, LOGIN_MAX_FAILURES_PER_ADDRESS: 1000 } });
    await createUser(s.host, 'alice', { admin: true });
    await createUser(s.host, 'bob');
    calls = [];
    const counting: typeof fetch = (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    };
    alice = new RepoHostClient({ url: s.url, auth: { token: await createToken(s.host, 'alice') }, fetch: counting });
    repo = await alice.repos.createCurrentUserRepo({ name: 'demo', auto_init: true, description: 'for the client' });
  });
  afterAll(async () => s?.cleanup());

  test('repos: create, get, edit, files (a path with slashes and spaces), raw answers, branches, search', async () => {
    expect(repo).toMatchObject({ name: 'demo', full_name: 'alice/demo', description: 'for the client', private: false });
    expect((await alice.repos.get('alice', 'demo')).id).toBe(repo.id);
    expect((await alice.repos.edit('alice', 'demo', { description: 'edited' })).description).toBe('edited');

    const created = await alice.repos.createFile('alice', 'demo', 'docs/a file.md', { content: base64('# Title\n'), message: 'add a file' });
    expect(created.content?.path).toBe('docs/a file.md');
    const raw = await alice.repos.getRawFile('alice', 'demo', 'docs/a file.md');
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe('# Title\n');
    const contents = await alice.repos.getContents('alice', 'demo', 'docs/a file.md');
    expect(contents).toMatchObject({ type: 'file', path: 'docs/a file.md' });

    const branch = await alice.repos.createBranch('alice', 'demo', { new_branch_name: 'feature' });
    expect(branch.name).toBe('feature');
    expect((await alice.repos.listBranches('alice', 'demo')).map((b) => b.name).sort()).toEqual([repo.default_branch, 'feature'].sort());
    const found = await alice.repos.search({ q: 'demo' });
    expect(found.data?.map((r) => r.full_name)).toContain('alice/demo');
  });

  test('pulls: open one from a branch, read it, list it', async () => {
    await alice.repos.createBranch('alice', 'demo', { new_branch_name: 'topic' });
    await alice.repos.createFile('alice', 'demo', 'topic.txt', { content: base64('topic\n'), branch: 'topic', message: 'on topic' });
    const pull = await alice.repos.createPullRequest('alice', 'demo', { head: 'topic', base: repo.default_branch, title: 'A change' });
    expect(pull).toMatchObject({ number: expect.any(Number), title: 'A change', state: 'open', mergeable: expect.any(Boolean) });
    expect((await alice.repos.getPullRequest('alice', 'demo', pull.number)).head?.ref).toBe('topic');
    expect((await alice.repos.listPullRequests('alice', 'demo', { state: 'open' })).map((p) => p.number)).toEqual([pull.number]);
  });

  test('issues: create, list with a filter, comment, a multipart attachment', async () => {
    const issue = await alice.issues.createIssue('alice', 'demo', { title: 'Broken', body: 'It broke.' });
    expect(issue).toMatchObject({ title: 'Broken', state: 'open' });
    const comment = await alice.issues.createComment('alice', 'demo', issue.number, { body: 'Still broken.' });
    expect(comment.body).toBe('Still broken.');
    const open = await alice.issues.listIssues('alice', 'demo', { state: 'open', type: 'issues', q: 'Broken' });
    expect(open.map((i) => i.number)).toEqual([issue.number]);

    const form = new FormData();
    form.append('attachment', new Blob(['log line\n'], { type: 'text/plain' }), 'build.log');
    const attachment = await alice.issues.createIssueAttachment('alice', 'demo', issue.number, { name: 'build.log' }, { body: form });
    expect(attachment).toMatchObject({ name: 'build.log', size: 9 });
  });

  test('pagination: awaiting gives the page asked for; iterating follows Link to the last page', async () => {
    const created = await alice.repos.createCurrentUserRepo({ name: 'paged' });
    for (let i = 1; i <= 5; i++) await alice.issues.createIssue('alice', created.name, { title: `issue ${i}` });

    const firstPage = await alice.issues.listIssues('alice', 'paged', { limit: 2 });
    expect(firstPage).toHaveLength(2);
    const page = await alice.issues.listIssues('alice', 'paged', { limit: 2, page: 2 }).page();
    expect(page).toMatchObject({ total: 5, page: 2, next: 3 });

    calls.length = 0;
    const titles: string[] = [];
    for await (const issue of alice.issues.listIssues('alice', 'paged', { limit: 2, state: 'all' })) titles.push(issue.title);
    expect(titles.sort()).toEqual(['issue 1', 'issue 2', 'issue 3', 'issue 4', 'issue 5']);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toMatch(/[?&]page=3(&|$)/);

    const pages = [];
    for await (const p of alice.issues.listIssues('alice', 'paged', { limit: 2 }).pages()) pages.push([p.page, p.items.length, p.total]);
    expect(pages).toEqual([[1, 2, 5], [2, 2, 5], [3, 1, 5]]);
    expect(await alice.issues.listIssues('alice', 'paged', { limit: 3 }).all()).toHaveLength(5);
  });

  test('users, orgs, admin, notifications, settings and misc', async () => {
    expect((await alice.users.getCurrent()).login).toBe('alice');
    expect((await alice.users.get('bob')).login).toBe('bob');
    expect((await alice.users.search({ q: 'bo' })).data?.map((u) => u.login)).toContain('bob');
    expect((await alice.users.currentListRepos()).map((r) => r.name)).toContain('demo');

    const org = await alice.orgs.create({ username: 'acme', full_name: 'Acme' });
    expect(org).toMatchObject({ name: 'acme', full_name: 'Acme' });
    await alice.orgs.createOrgRepo('acme', { name: 'site' });
    expect((await alice.orgs.listRepos('acme')).map((r) => r.full_name)).toEqual(['acme/site']);
    expect((await alice.orgs.listTeams('acme')).map((t) => t.name)).toEqual(['Owners']);

    const carol = await alice.admin.createUser({ username: 'carol', email: 'carol@example.com', password: PASSWORD, must_change_password: false });
    expect(carol.login).toBe('carol');
    expect((await alice.admin.searchUsers({ login_name: 'carol' })).map((u) => u.login)).toEqual(['carol']);
    expect((await alice.admin.cronList()).length).toBeGreaterThan(0);

    expect(await alice.notifications.getList({ all: true })).toEqual(expect.any(Array));
    expect((await alice.settings.getGeneralAPISettings()).max_response_items).toBeGreaterThan(0);
    expect((await alice.misc.getVersion()).version).toEqual(expect.any(String));
    expect(await alice.misc.listGitignoresTemplates()).toContain('Node');
    const html = await alice.misc.renderMarkdown({ Text: '# Hello', Mode: 'markdown' });
    expect(await html.text()).toContain('Hello</h1>');
  });

  test('packages and actions lists', async () => {
    expect(await alice.packages.listPackages('alice')).toEqual([]);
    await alice.repos.createRepoVariable('alice', 'demo', 'COLOUR', { value: 'blue' });
    expect((await alice.repos.getRepoVariablesList('alice', 'demo')).map((v) => [v.name, v.data])).toEqual([['COLOUR', 'blue']]);
    expect((await alice.repos.listActionRuns('alice', 'demo')).total_count).toBe(0);
    expect(await alice.users.getUserVariablesList()).toEqual([]);
  });

  test('errors are typed and carry the status and Forgejo’s message', async () => {
    const missing = await failure(alice.repos.get('alice', 'nothing-here'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, method: 'GET', path: '/repos/alice/nothing-here' });
    expect(missing.body).toMatchObject({ message: expect.any(String) });

    const anonymous = new RepoHostClient({ url: `${s.url}api/v1/` });
    const unauthorized = await failure(anonymous.users.getCurrent());
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect(unauthorized.status).toBe(401);
    expect((await anonymous.repos.get('alice', 'demo')).name).toBe('demo');

    const bob = new RepoHostClient({ url: s.url, auth: { token: await createToken(s.host, 'bob') } });
    const forbidden = await failure(bob.admin.cronList());
    expect(forbidden).toBeInstanceOf(ForbiddenError);
    expect(forbidden.status).toBe(403);
    expect(forbidden.message).toBe((forbidden.body as ApiErrorBody).message);

    const conflict = await failure(alice.repos.createCurrentUserRepo({ name: 'demo' }));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict.message).toBe('The repository with the same name already exists.');

    const invalid = await failure(alice.repos.createCurrentUserRepo({ name: 'not a name' }));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.status).toBe(422);
    expect(invalid.url).toMatch(/^https?:\/\//);
  });

  test('credentials: basic, basic with X-Forgejo-OTP, bearer, sudo', async () => {
    const basic = new RepoHostClient({ url: s.url, auth: { basic: { username: 'bob', password: PASSWORD } } });
    expect((await basic.users.getCurrent()).login).toBe('bob');
    expect((await failure(new RepoHostClient({ url: s.url, auth: { basic: { username: 'bob', password: 'wrong' } } }).users.getCurrent())).status).toBe(401);

    const dave = await createUser(s.host, 'dave');
    const { secret } = await s.host.twoFactor.enrol(userActor(dave), dave);
    const step = totpStep();
    await s.host.twoFactor.confirm(userActor(dave), dave, totp(secret, step));
    const withoutCode = new RepoHostClient({ url: s.url, auth: { basic: { username: 'dave', password: PASSWORD } } });
    expect(await failure(withoutCode.users.getCurrent())).toBeInstanceOf(UnauthorizedError);
    const withCode = new RepoHostClient({ url: s.url, auth: { basic: { username: 'dave', password: PASSWORD, otp: () => totp(secret, step + 1) } } });
    expect((await withCode.users.getCurrent()).login).toBe('dave');

    const bearer = new RepoHostClient({ url: s.url, auth: { bearer: await createToken(s.host, 'bob') } });
    expect((await bearer.users.getCurrent()).login).toBe('bob');

    expect((await alice.sudo('bob').users.getCurrent()).login).toBe('bob');
    expect((await alice.users.getCurrent({ sudo: 'carol' })).login).toBe('carol');
    const refused = await failure(bearer.users.getCurrent({ sudo: 'alice' }));
    expect(refused).toBeInstanceOf(ForbiddenError);
  });
});
