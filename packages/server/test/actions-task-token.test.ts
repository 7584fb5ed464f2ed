/**
 * A workflow task's token (the `GITHUB_TOKEN` a runner receives) authenticates as Forgejo's does: as the Actions
 * user acting for its task, in the API (`token`/`Bearer` header, basic password with any user name, `?token=`) and
 * over git smart HTTP (how actions/checkout clones), only while the task runs. On the task's own repository it
 * writes (a push goes in, and starts no workflow: no loop); elsewhere it reads what an account given nothing may.
 * `GET /actions/run` answers the task's run to that token alone. The task is taken with the Go protocol runner's
 * `fetch-once -print-token` (`test/fixtures/actions-runner`); skipped without it, as actions-runs.test.ts is.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACTIONS_USER, AccessMode, ActionRunSchema, NO_GRANTS, repoPermission, schemaErrors, type Actor, type User } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, type Account } from './helpers';
import { RUNNER, actionsKit, runner } from './actions-helpers';

const run = promisify(execFile);

if (!RUNNER) console.warn('actions-task-token.test: no actions-runner binary (see .ci/run); the token tests are skipped');

let s: TestServer;
let alice: Account;
let bob: Account;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let counter = 0;
const { createRepo, putFile, registerRunner, waitForRuns } = actionsKit(() => s);

async function git(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('git', args, { cwd, env: gitEnv, timeout: 60_000 });
    return { code: 0, stdout: String(stdout), stderr: String(stderr) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: String(failed.stdout ?? ''), stderr: String(failed.stderr ?? '') };
  }
}

/** The clone URL with basic credentials in it, as actions/checkout sets them (any user name, the token as password). */
function cloneUrl(full: string, user: string, password: string): string {
  return `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${new URL(s.url).port}/${full}.git`;
}

async function clone(full: string, user: string, password: string): Promise<{ code: number; dir: string; stderr: string }> {
  const dir = path.join(scratch, `clone-${++counter}`);
  const result = await git(['clone', '-q', cloneUrl(full, user, password), dir], scratch);
  return { code: result.code, dir, stderr: result.stderr };
}

/** Polls the run list until a run of commit `sha` is there. */
async function waitForRunOf(repo: string, who: Account, sha: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const body = await json<{ workflow_runs: any[] }>(await s.fetch(`/api/v1/repos/${repo}/actions/runs?head_sha=${sha}`, { headers: who.h }));
    if (body.workflow_runs.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no run of ${sha} in ${repo}`);
}

const WORKFLOW = `on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo hello
`;

beforeAll(async () => {
  s = await startTestServer();
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-task-token-'));
  const home = path.join(scratch, 'home');
  await run('mkdir', ['-p', home]);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Workflow\n\temail = workflow@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});

afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.skipIf(!RUNNER)("a running task's token", () => {
  let repo: string;
  let agent: { uuid: string; token: string };
  let runId: number;
  let taskId: number;
  let token: string;
  let bobPrivate: string;
  let bobPublic: string;

  const as = (headers: Record<string, string> = {}) => ({ headers: { authorization: `token ${token}`, ...headers } });

  beforeAll(async () => {
    repo = await createRepo(alice, true);
    bobPrivate = await createRepo(bob, true);
    bobPublic = await createRepo(bob, false);
    agent = await registerRunner(repo, alice);
    await putFile(repo, alice, '.forgejo/workflows/ci.yml', WORKFLOW);
    runId = (await waitForRuns(repo, alice, 1))[0].id;
    const fetched = await runner(['fetch-once', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token, '-print-token']);
    expect(fetched.code, fetched.stderr).toBe(0);
    ({ task_id: taskId, token } = fetched.lines[0]);
    expect(taskId).toBeGreaterThan(0);
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    // The same token in the github context and in the GITHUB_TOKEN secret.
    expect(fetched.lines[0].secret_token).toBe(token);
  });

  test('reads its private repository through the API as the Actions user, with write on code and no admin', async () => {
    for (const init of [as(), { headers: { authorization: `Bearer ${token}` } }, { headers: { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` } }]) {
      const res = await s.fetch(`/api/v1/repos/${repo}`, init);
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await json<any>(res)).permissions).toEqual({ admin: false, push: true, pull: true });
    }
    // The deprecated query token takes it too.
    expect((await s.fetch(`/api/v1/repos/${repo}?token=${token}`)).status).toBe(200);
    const me = await json<any>(await s.fetch('/api/v1/user', as()));
    expect(me).toMatchObject({ id: ACTIONS_USER.id, login: ACTIONS_USER.name });
    // Writing what write on code allows (a commit status, as CI reports one); refused what needs admin (editing
    // the repository).
    const branch = await json<any>(await s.fetch(`/api/v1/repos/${repo}/branches/main`, as()));
    const status = await s.fetch(`/api/v1/repos/${repo}/statuses/${branch.commit.id}`, jsonInit('POST', { state: 'success', context: 'workflow' }, as().headers));
    expect(status.status, await status.clone().text()).toBe(201);
    expect((await s.fetch(`/api/v1/repos/${repo}`, jsonInit('PATCH', { description: 'no' }, as().headers))).status).toBe(403);
    // An issue and a comment by the workflow (what bots do): written as the Actions user; the activity feed, which
    // shows accounts only, leaves them out.
    const issue = await s.fetch(`/api/v1/repos/${repo}/issues`, jsonInit('POST', { title: 'from the workflow' }, as().headers));
    expect(issue.status, await issue.clone().text()).toBe(201);
    const created = await json<any>(issue);
    expect(created.user.login).toBe(ACTIONS_USER.name);
    const comment = await s.fetch(`/api/v1/repos/${repo}/issues/${created.number}/comments`, jsonInit('POST', { body: 'done' }, as().headers));
    expect(comment.status, await comment.clone().text()).toBe(201);
  });

  test('GET /actions/run answers the run of the task to its token, and refuses every other caller', async () => {
    const res = await s.fetch('/api/v1/actions/run', as());
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await json<any>(res);
    expect(schemaErrors(ActionRunSchema, body)).toEqual([]);
    expect(body).toMatchObject({ id: runId, index_in_repo: 1, workflow_id: 'ci.yml', status: 'running' });
    expect(body.repository.full_name).toBe(repo);
    expect(body.trigger_user.login).toBe(alice.name);
    // As Forgejo: a personal token, or no token, is not the automatic token.
    expect((await s.fetch('/api/v1/actions/run', { headers: alice.h })).status).toBe(403);
    expect((await s.fetch('/api/v1/actions/run')).status).toBe(403);
  });

  test('clones its private repository over HTTP with any user name, and pushes to it', async () => {
    const cloned = await clone(repo, 'x', token);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(await readFile(path.join(cloned.dir, '.forgejo/workflows/ci.yml'), 'utf8')).toBe(WORKFLOW);
    await writeFile(path.join(cloned.dir, 'built.txt'), 'made by the workflow\n');
    expect((await git(['add', 'built.txt'], cloned.dir)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'from the workflow'], cloned.dir)).code).toBe(0);
    const pushed = await git(['push', '-q', 'origin', 'HEAD:main'], cloned.dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    const head = (await git(['rev-parse', 'HEAD'], cloned.dir)).stdout.trim();
    const branch = await json<any>(await s.fetch(`/api/v1/repos/${repo}/branches/main`, { headers: alice.h }));
    expect(branch.commit.id).toBe(head);
  });

  test('a push made with the token starts no workflow (no loop); a push of the owner still does', async () => {
    const before = (await waitForRuns(repo, alice, 1)).length;
    const cloned = await clone(repo, 'x', token);
    expect(cloned.code, cloned.stderr).toBe(0);
    await writeFile(path.join(cloned.dir, 'again.txt'), 'again\n');
    expect((await git(['add', 'again.txt'], cloned.dir)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'again from the workflow'], cloned.dir)).code).toBe(0);
    const pushed = await git(['push', '-q', 'origin', 'HEAD:main'], cloned.dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    const taskSha = (await git(['rev-parse', 'HEAD'], cloned.dir)).stdout.trim();
    // The owner's push after it is detected after it (one job queue), so once its run is there the task's push
    // had its chance to start one.
    const ownerSha = await putFile(repo, alice, 'owner.txt', 'owner\n');
    await waitForRunOf(repo, alice, ownerSha);
    const after = await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs`, { headers: alice.h }));
    expect(after.workflow_runs.map((found: any) => found.commit_sha)).not.toContain(taskSha);
    expect(after.total_count).toBe(before + 1);
  });

  test("another account's private repository does not exist for it; a public one clones but takes no push, and the API stays on its own", async () => {
    expect((await s.fetch(`/api/v1/repos/${bobPrivate}`, as())).status).toBe(404);
    const hidden = await clone(bobPrivate, 'x', token);
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr).toMatch(/not found/i);

    // Forgejo's repoAssignment: through the API the token reaches its own repository only, public ones included.
    expect((await s.fetch(`/api/v1/repos/${bobPublic}`, as())).status).toBe(404);
    const readable = await clone(bobPublic, 'x', token);
    expect(readable.code, readable.stderr).toBe(0);
    await writeFile(path.join(readable.dir, 'intruder.txt'), 'no\n');
    expect((await git(['add', 'intruder.txt'], readable.dir)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'intrude'], readable.dir)).code).toBe(0);
    const refused = await git(['push', '-q', 'origin', 'HEAD:main'], readable.dir);
    expect(refused.code).not.toBe(0);
    const branch = await json<any>(await s.fetch(`/api/v1/repos/${bobPublic}/branches/main`, { headers: bob.h }));
    expect((await s.fetch(`/api/v1/repos/${bobPublic}/statuses/${branch.commit.id}`, jsonInit('POST', { state: 'success', context: 'intruder' }, as().headers))).status).toBe(404);
  });

  test("once the task finished its token is refused as an unknown token is (401), in the API and by git", async () => {
    const finished = await runner(['raw', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token, '-call', 'update-task', '-task', String(taskId), '-result', 'success']);
    expect(finished.code, finished.stderr).toBe(0);
    expect((await s.fetch(`/api/v1/repos/${repo}`, as())).status).toBe(401);
    expect((await s.fetch(`/api/v1/repos/${repo}`, { headers: { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` } })).status).toBe(401);
    expect((await s.fetch('/api/v1/actions/run', as())).status).toBe(401);
    const refused = await clone(repo, 'x', token);
    expect(refused.code).not.toBe(0);
    // Anonymous is not let in either: the repository is private.
    expect((await s.fetch(`/api/v1/repos/${repo}`)).status).toBe(404);
  });
});

describe("the permission rule for a task's actor", () => {
  const owner = { id: 7, visibility: 0, is_admin: 0, is_restricted: 0 } as unknown as User;
  const task = (forkPullRequest: boolean): Actor => ({ kind: 'user', user: ACTIONS_USER, publicOnly: false, task: { id: 1, repoId: 5, forkPullRequest } });

  test("its own repository: write on every unit, or read for a fork pull request's run; grants change nothing", () => {
    const own = { id: 5, is_private: 1 };
    expect(repoPermission(task(false), own, owner, NO_GRANTS)).toEqual({ mode: AccessMode.Write });
    expect(repoPermission(task(true), own, owner, NO_GRANTS)).toEqual({ mode: AccessMode.Read });
    expect(repoPermission(task(false), own, owner, { member: true, mode: AccessMode.Owner, fromTeamAdmin: true })).toEqual({ mode: AccessMode.Write });
  });

  test('elsewhere: public repositories read, private ones nothing, whatever grants a caller passes', () => {
    expect(repoPermission(task(false), { id: 6, is_private: 0 }, owner, NO_GRANTS)).toEqual({ mode: AccessMode.Read });
    expect(repoPermission(task(false), { id: 6, is_private: 1 }, owner, NO_GRANTS)).toEqual({ mode: AccessMode.None });
    expect(repoPermission(task(false), { id: 6, is_private: 1 }, owner, { member: true, mode: AccessMode.Write })).toEqual({ mode: AccessMode.None });
  });
});
