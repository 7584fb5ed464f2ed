/**
 * Workflow artifacts end to end with the real client: `@actions/artifact` v2 (the library inside
 * `actions/upload-artifact@v4` and `download-artifact@v4`), installed from the npm registry into a temporary folder
 * on first use, run by Node with the environment a runner gives a step (`ACTIONS_RUNTIME_TOKEN` from the task
 * context's `gitea_runtime_token`, `ACTIONS_RESULTS_URL`, `GITHUB_*`): it uploads two files, lists and downloads
 * them (bytes equal); the API v1 then lists, reads, serves the zip and deletes. Refusals: no token, a forged one, a
 * finished task's, another run, an oversized block, an owner over quota, the artifact through another repository,
 * and another user's private repository (404). The cleanup task expires what is past its retention.
 */
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARTIFACTS_SPACE, ActionArtifactSchema, ArtifactsService, BlobsService, RunnersService, SYSTEM, TasksService, schemaErrors, type RegisteredRunner } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, tempFolders, uniq, type Account } from './helpers';

const temp = tempFolders();

const run = promisify(execFile);

/** Where the client is installed once per machine (npm's own cache makes a second install quick). */
const CLIENT_VERSION = '2.3.2';
const CLIENT_DIR = path.join(tmpdir(), 'repohost-test-npm', `actions-artifact-${CLIENT_VERSION}`);
const CLIENT_SCRIPT = path.join(CLIENT_DIR, 'artifact-client.cjs');
/** Artifacts may take this many bytes here, so that an oversized upload is small. */
const MAX_SIZE = 64 * 1024;

/** A step's script: one operation of the client, its answer as JSON on stdout. */
const SCRIPT = `
const { DefaultArtifactClient } = require('@actions/artifact');
const [op, ...args] = process.argv.slice(2);
const client = new DefaultArtifactClient();
(async () => {
  let answer;
  if (op === 'upload') answer = await client.uploadArtifact(args[0], args.slice(2), args[1], { retentionDays: 5 });
  else if (op === 'list') answer = await client.listArtifacts();
  else if (op === 'download') answer = await client.downloadArtifact(Number(args[0]), { path: args[1] });
  else if (op === 'delete') answer = await client.deleteArtifact(args[0]);
  // After a marker: the library logs to stdout too.
  process.stdout.write('\\n@@answer@@' + JSON.stringify(answer ?? null));
})().catch((error) => { process.stderr.write(String(error && error.message || error)); process.exit(1); });
`;

async function installClient(): Promise<void> {
  if (!existsSync(path.join(CLIENT_DIR, 'node_modules', '@actions', 'artifact', 'package.json'))) {
    // Installed aside and moved into place: the SQLite and PostgreSQL runs of this file may install at once.
    await mkdir(path.dirname(CLIENT_DIR), { recursive: true });
    const staging = await mkdtemp(`${CLIENT_DIR}.install-`);
    await writeFile(path.join(staging, 'package.json'), JSON.stringify({ name: 'repohost-artifact-client', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `@actions/artifact@${CLIENT_VERSION}`], { cwd: staging, timeout: 240_000 });
    await rename(staging, CLIENT_DIR).catch(async () => {
      // Another run moved its copy first; that one serves.
      await rm(staging, { recursive: true, force: true });
    });
  }
  await writeFile(`${CLIENT_SCRIPT}.${process.pid}`, SCRIPT);
  await rename(`${CLIENT_SCRIPT}.${process.pid}`, CLIENT_SCRIPT);
}

let s: TestServer;
let alice: Account;
let bob: Account;
let carol: Account;

interface RunningTask {
  repo: string;
  runner: RegisteredRunner;
  taskId: number;
  runId: number;
  runtimeToken: string;
}

/** A repository of `who` with a one-job workflow, a runner of it, and the job taken: a running task. */
async function startTask(who: Account, isPrivate = false): Promise<RunningTask> {
  const name = uniq('art');
  const created = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate, auto_init: true, default_branch: 'main' }, who.h));
  expect(created.status, await created.clone().text()).toBe(201);
  const repo = `${who.name}/${name}`;
  const tokenRes = await s.fetch(`/api/v1/repos/${repo}/actions/runners/registration-token`, { headers: who.h });
  expect(tokenRes.status).toBe(200);
  const runner = await s.host.service(RunnersService).registerWithToken({ name: uniq('runner'), token: (await json<{ token: string }>(tokenRes)).token, version: 'test', labels: ['ubuntu-latest'], ephemeral: false });
  const workflow = 'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n';
  const put = await s.fetch(`/api/v1/repos/${repo}/contents/.forgejo/workflows/ci.yml`, jsonInit('POST', { content: Buffer.from(workflow).toString('base64'), message: 'ci' }, who.h));
  expect(put.status).toBe(201);
  for (let i = 0; i < 200; i++) {
    const { task } = await s.host.service(TasksService).fetchTask(runner.runner, 0);
    if (task) {
      const token = task.context.gitea_runtime_token;
      expect(typeof token).toBe('string');
      return { repo, runner, taskId: task.id, runId: Number(task.context.run_id), runtimeToken: token as string };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no task for ${repo}`);
}

/** Runs the client as a step of the task would, in `cwd`. */
async function client(task: RunningTask, args: string[], cwd: string): Promise<{ code: number; out: any; stderr: string }> {
  const port = new URL(s.url).port;
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_PATH: path.join(CLIENT_DIR, 'node_modules'),
    ACTIONS_RUNTIME_TOKEN: task.runtimeToken,
    ACTIONS_RESULTS_URL: s.url,
    ACTIONS_RUNTIME_URL: `${s.url}api/actions_pipeline/`,
    // `@actions/artifact` refuses any server it takes for GitHub Enterprise (not github.com, *.ghe.com or *.localhost);
    // the forks Forgejo's runners use drop that check, this test names the server as a .localhost host instead.
    GITHUB_SERVER_URL: `http://repohost.localhost:${port}`,
    GITHUB_REPOSITORY: task.repo,
    GITHUB_RUN_ID: String(task.runId),
    GITHUB_WORKSPACE: cwd,
    ACTIONS_ARTIFACT_UPLOAD_CONCURRENCY: '2',
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [CLIENT_SCRIPT, ...args], { cwd, env, timeout: 60_000 });
    const marker = stdout.lastIndexOf('@@answer@@');
    return { code: 0, out: marker >= 0 ? JSON.parse(stdout.slice(marker + '@@answer@@'.length)) : undefined, stderr: `${stderr}${stdout}` };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string; stdout?: string; message?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, out: undefined, stderr: `${failed.stderr ?? ''}${failed.stdout ?? ''}${failed.message ?? ''}` };
  }
}

/** The keys stored in the artifacts' blob space under `prefix`. */
async function storedKeys(prefix?: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const blob of s.host.service(BlobsService).storage(ARTIFACTS_SPACE).list(prefix)) keys.push(blob.key);
  return keys;
}

/** A raw twirp call of the artifact service. */
function twirp(method: string, body: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return s.fetch(`/twirp/github.actions.results.api.v1.ArtifactService/${method}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

/** A well-formed runtime token signed with a key that is not the server's. */
function forgedToken(task: RunningTask): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const payload = Buffer.from(JSON.stringify({ scp: `Actions.Results:${task.runId}:1`, TaskID: task.taskId, RunID: task.runId, JobID: 1, exp: now + 3600 })).toString('base64url');
  const signature = createHmac('sha256', randomBytes(32)).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

beforeAll(async () => {
  await installClient();
  s = await startTestServer({ actions: { ARTIFACT_MAX_SIZE: MAX_SIZE }, quota: { ENABLED: true } });
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
  carol = await account(s, 'carol');
}, 300_000);

afterAll(async () => {
  await temp.removeAll();
  await s?.cleanup();
});

describe('artifacts uploaded by @actions/artifact', () => {
  let task: RunningTask;
  let work: string;
  const first = `first file ${randomBytes(16).toString('hex')}\n`;
  const second = randomBytes(3000);
  let artifactId: number;

  beforeAll(async () => {
    task = await startTask(alice, true);
    work = await temp.make('repohost-artifacts-');
    await mkdir(path.join(work, 'out', 'nested'), { recursive: true });
    await writeFile(path.join(work, 'out', 'first.txt'), first);
    await writeFile(path.join(work, 'out', 'nested', 'second.bin'), second);
  });

  test('the client uploads two files, lists the artifact and downloads the same bytes', async () => {
    const uploaded = await client(task, ['upload', 'build-output', path.join(work, 'out'), path.join(work, 'out', 'first.txt'), path.join(work, 'out', 'nested', 'second.bin')], work);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(uploaded.out.id).toBeGreaterThan(0);
    expect(uploaded.out.size).toBeGreaterThan(0);
    artifactId = uploaded.out.id;

    const listed = await client(task, ['list'], work);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.out.artifacts).toHaveLength(1);
    expect(listed.out.artifacts[0]).toMatchObject({ id: artifactId, name: 'build-output', size: uploaded.out.size, digest: `sha256:${uploaded.out.digest}` });

    const target = path.join(work, 'downloaded');
    const downloaded = await client(task, ['download', String(artifactId), target], work);
    expect(downloaded.code, downloaded.stderr).toBe(0);
    expect(await readFile(path.join(target, 'first.txt'), 'utf8')).toBe(first);
    expect((await readFile(path.join(target, 'nested', 'second.bin'))).equals(second)).toBe(true);
    // One zip in the run's folder; the blocks it was assembled from are gone.
    const zips = await storedKeys(String(task.runId));
    expect(zips).toHaveLength(1);
    expect(zips[0]!.startsWith(`${task.runId}/${artifactId}-`) && zips[0]!.endsWith('.zip')).toBe(true);
    expect(await storedKeys(`tmp/${artifactId}`)).toEqual([]);
  });

  test('the API v1 lists, reads and serves the zip; the owner quota counts it', async () => {
    const list = await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts`, { headers: alice.h });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    const items = await json<any[]>(list);
    expect(items).toHaveLength(1);
    expect(schemaErrors(ActionArtifactSchema, items[0])).toEqual([]);
    expect(items[0]).toMatchObject({ id: artifactId, name: 'build-output', expired: false, run_id: task.runId, archive_download_url: `${s.url}api/v1/repos/${task.repo}/actions/artifacts/${artifactId}/zip` });
    // retentionDays 5 from the client: expires in 5 days, not the default 90.
    const days = (Date.parse(items[0].expires_at) - Date.parse(items[0].created_at)) / 86_400_000;
    expect(Math.round(days)).toBe(5);

    expect(await json<any[]>(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts?name=other`, { headers: alice.h }))).toEqual([]);
    const ofRun = await json<any[]>(await s.fetch(`/api/v1/repos/${task.repo}/actions/runs/${task.runId}/artifacts?name=build-output`, { headers: alice.h }));
    expect(ofRun.map((a) => a.id)).toEqual([artifactId]);

    const one = await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts/${artifactId}`, { headers: alice.h });
    expect(one.status).toBe(200);
    expect(await json(one)).toEqual(items[0]);

    const zip = await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts/${artifactId}/zip`, { headers: alice.h });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.length).toBe(items[0].size_in_bytes);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    // A whole zip: its end-of-central-directory record is there.
    expect(bytes.includes(Buffer.from('PK\x05\x06', 'latin1'))).toBe(true);

    const quota = await json<any[]>(await s.fetch('/api/v1/user/quota/artifacts', { headers: alice.h }));
    expect(quota).toEqual([{ name: 'build-output', size: items[0].size_in_bytes, html_url: `${s.url}${task.repo}/actions/runs/${(await json<any>(await s.fetch(`/api/v1/repos/${task.repo}/actions/runs/${task.runId}`, { headers: alice.h }))).index_in_repo}` }]);
    const info = await json<any>(await s.fetch('/api/v1/user/quota', { headers: alice.h }));
    expect(info.used.size.assets.artifacts).toBe(items[0].size_in_bytes);
  });

  test('refusals of the protocol: no token, a forged one, another run, an oversized block, a bad block list', async () => {
    const ids = { workflow_run_backend_id: String(task.runId), workflow_job_run_backend_id: '1' };
    expect((await twirp('ListArtifacts', ids)).status).toBe(401);
    expect((await twirp('ListArtifacts', ids, 'not-a-jwt')).status).toBe(401);
    const forged = await twirp('ListArtifacts', ids, forgedToken(task));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: 'unauthenticated' });
    const otherRun = await twirp('ListArtifacts', { ...ids, workflow_run_backend_id: String(task.runId + 1000) }, task.runtimeToken);
    expect(otherRun.status).toBe(400);
    expect((await twirp('CreateArtifact', { ...ids, name: 'a/b', version: 4 }, task.runtimeToken)).status).toBe(400);
    expect((await twirp('CreateArtifact', { ...ids, name: 7 }, task.runtimeToken)).status).toBe(400);
    expect((await twirp('CreateArtifact', { ...ids, name: 'x'.repeat(252) }, task.runtimeToken)).status).toBe(400);
    const notJson = await s.fetch('/twirp/github.actions.results.api.v1.ArtifactService/ListArtifacts', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${task.runtimeToken}` }, body: '{' });
    expect(notJson.status).toBe(400);
    expect((await twirp('NoSuchMethod', ids, task.runtimeToken)).status).toBe(404);

    const created = await twirp('CreateArtifact', { ...ids, name: 'big', version: 4 }, task.runtimeToken);
    expect(created.status).toBe(200);
    const { signedUploadUrl } = await json<{ signedUploadUrl: string }>(created);
    const upload = new URL(signedUploadUrl);
    const put = (query: string, body: Uint8Array | string) => s.fetch(`${upload.pathname}${upload.search}&${query}`, { method: 'PUT', body });
    expect((await put('comp=block&blockid=YQ==', Buffer.alloc(100))).status).toBe(201);
    const oversized = await put('comp=block&blockid=Yg==', randomBytes(MAX_SIZE + 1));
    expect(oversized.status).toBe(413);
    // A tampered signature, and a block list naming a block never sent.
    expect((await s.fetch(`${upload.pathname}${upload.search.replace(/sig=[^&]+/, 'sig=AAAA')}&comp=block&blockid=YQ==`, { method: 'PUT', body: 'x' })).status).toBe(401);
    expect((await put('comp=blocklist', '<?xml version="1.0"?><BlockList><Latest>Yw==</Latest></BlockList>')).status).toBe(400);
    expect((await put('comp=nothing', 'x')).status).toBe(400);
    // The client itself is refused a zip over the limit.
    await writeFile(path.join(work, 'huge.bin'), randomBytes(MAX_SIZE * 2));
    const huge = await client(task, ['upload', 'huge', work, path.join(work, 'huge.bin')], work);
    expect(huge.code).not.toBe(0);
    expect(huge.stderr).toContain('block exceeds limit');
    // Nothing of it is listed until finalized.
    const listed = await json<{ artifacts: any[] }>(await twirp('ListArtifacts', ids, task.runtimeToken));
    expect(listed.artifacts.map((a) => a.name)).toEqual(['build-output']);
  });

  test('who may see and delete: another user and another repository get 404, a reader may not delete', async () => {
    const path1 = `/api/v1/repos/${task.repo}/actions/artifacts/${artifactId}`;
    await expectApiError(await s.fetch(path1, { headers: bob.h }), 404, s.url);
    await expectApiError(await s.fetch(`${path1}/zip`, { headers: bob.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts`), 404, s.url);
    const other = await startTask(bob);
    await expectApiError(await s.fetch(`/api/v1/repos/${other.repo}/actions/artifacts/${artifactId}`, { headers: bob.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${other.repo}/actions/artifacts/${artifactId}/zip`, { headers: bob.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${other.repo}/actions/runs/${task.runId}/artifacts`, { headers: bob.h }), 404, s.url);
    // Bob's task may not read Alice's run.
    expect((await twirp('ListArtifacts', { workflow_run_backend_id: String(task.runId), workflow_job_run_backend_id: '1' }, other.runtimeToken)).status).toBe(400);
    // A reader of a public repository sees its artifacts but may not delete them.
    const pub = await startTask(carol);
    const work2 = await temp.make('repohost-artifacts-');
    await writeFile(path.join(work2, 'a.txt'), 'a');
    const up = await client(pub, ['upload', 'pub', work2, path.join(work2, 'a.txt')], work2);
    expect(up.code, up.stderr).toBe(0);
    expect((await s.fetch(`/api/v1/repos/${pub.repo}/actions/artifacts/${up.out.id}`, { headers: bob.h })).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${pub.repo}/actions/artifacts/${up.out.id}`, { method: 'DELETE', headers: bob.h }), 403, s.url);
  });

  test('delete marks it for deletion; the cleanup removes it', async () => {
    await expectApiError(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts/999999999`, { method: 'DELETE', headers: alice.h }), 404, s.url);
    const res = await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts/${artifactId}`, { method: 'DELETE', headers: alice.h });
    expect(res.status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts/${artifactId}`, { headers: alice.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts/${artifactId}/zip`, { headers: alice.h }), 404, s.url);
    expect(await json<any[]>(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts`, { headers: alice.h }))).toEqual([]);
    expect((await storedKeys(String(task.runId))).some((key) => key.startsWith(`${task.runId}/${artifactId}-`))).toBe(true);
    const summary = await s.host.service(ArtifactsService).cleanup(new AbortController().signal);
    expect(summary).toMatch(/[1-9]\d* deleted/);
    expect((await storedKeys(String(task.runId))).some((key) => key.startsWith(`${task.runId}/${artifactId}-`))).toBe(false);
    expect(await json<any[]>(await s.fetch('/api/v1/user/quota/artifacts', { headers: alice.h }))).toEqual([]);
  });

  test("a finished task's token no longer works", async () => {
    await s.host.service(TasksService).updateTask(task.runner.runner, { id: task.taskId, result: 1, startedAt: Date.now() - 1000, stoppedAt: Date.now(), steps: [] }, new Map());
    const after = await client(task, ['list'], work);
    expect(after.code).not.toBe(0);
    expect(after.stderr).toContain('401');
  });
});

describe('quota and expiry', () => {
  test("a deleted repository's artifacts lose their zips with the next cleanup", async () => {
    const task = await startTask(alice);
    const work = await temp.make('repohost-artifacts-');
    await writeFile(path.join(work, 'a.txt'), 'gone soon');
    const up = await client(task, ['upload', 'doomed', work, path.join(work, 'a.txt')], work);
    expect(up.code, up.stderr).toBe(0);
    expect(await storedKeys(String(task.runId))).toHaveLength(1);
    expect((await s.fetch(`/api/v1/repos/${task.repo}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    expect(await s.host.service(ArtifactsService).cleanup(new AbortController().signal)).toMatch(/[1-9]\d* deleted/);
    expect(await storedKeys(String(task.runId))).toEqual([]);
  });

  test('an owner over the artifacts quota is refused the next upload (413)', async () => {
    const group = uniq('art-group');
    await s.host.quota.createGroup(SYSTEM, { name: group, rules: [
        { name: uniq('art-rule'), limit: 1, subjects: ['size:assets:artifacts'] },
        { name: uniq('repo-rule'), limit: -1, subjects: ['size:repos:all'] },
      ],
    });
    const dave = await account(s, 'dave');
    await s.host.quota.addMember(SYSTEM, group, await s.host.users.resolve(SYSTEM, dave.name));
    const task = await startTask(dave);
    const work = await temp.make('repohost-artifacts-');
    await writeFile(path.join(work, 'a.txt'), 'quota');
    const first = await client(task, ['upload', 'one', work, path.join(work, 'a.txt')], work);
    expect(first.code, first.stderr).toBe(0);
    const ids = { workflow_run_backend_id: String(task.runId), workflow_job_run_backend_id: '1' };
    const refused = await twirp('CreateArtifact', { ...ids, name: 'two', version: 4 }, task.runtimeToken);
    expect(refused.status).toBe(413);
  });

  test('the cleanup expires artifacts past their retention: listed as expired, the zip gone', async () => {
    const task = await startTask(alice);
    const work = await temp.make('repohost-artifacts-');
    await writeFile(path.join(work, 'a.txt'), 'old');
    const up = await client(task, ['upload', 'old', work, path.join(work, 'a.txt')], work);
    expect(up.code, up.stderr).toBe(0);
    // Retention measured from now: an artifact made 100 days ago is past any retention.
    const realNow = Date.now;
    Date.now = () => realNow() + 100 * 86_400_000;
    try {
      expect(await s.host.service(ArtifactsService).cleanup(new AbortController().signal)).toMatch(/^[1-9]\d* artifacts expired/);
    } finally {
      Date.now = realNow;
    }
    const [shown] = await json<any[]>(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts`, { headers: alice.h }));
    expect(shown).toMatchObject({ id: up.out.id, expired: true });
    await expectApiError(await s.fetch(`/api/v1/repos/${task.repo}/actions/artifacts/${up.out.id}/zip`, { headers: alice.h }), 404, s.url);
  });

  test('a retention the client asks for is taken in whole days, rounded: its request arrives a moment after it was made', async () => {
    const task = await startTask(alice);
    const artifacts = s.host.service(ArtifactsService);
    const runtime = await artifacts.authenticate(task.runtimeToken);
    const retention = async (name: string, fromNowMs: number) => {
      const { artifact } = await artifacts.create(runtime, { runId: task.runId, name, expiresAt: new Date(Date.now() + fromNowMs) });
      return (artifact.expired_unix - artifact.created_unix) / 86_400;
    };
    // @actions/artifact sends now + retention-days, computed on the runner before the request travels.
    expect(await retention('five', 5 * 86_400_000 - 3000)).toBe(5);
    expect(await retention('four', 4.3 * 86_400_000)).toBe(4);
    // At least a day, at most [actions] ARTIFACT_RETENTION_DAYS (90 by default).
    expect(await retention('soon', 60_000)).toBe(1);
    expect(await retention('long', 400 * 86_400_000)).toBe(90);
  });
});
