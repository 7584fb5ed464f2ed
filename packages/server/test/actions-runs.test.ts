/**
 * Workflow runs end to end with a runner that speaks the runner protocol as act_runner does (connect-rpc, the
 * official `code.gitea.io/actions-proto-go` package: `test/fixtures/actions-runner`): a runner registered with a
 * repository's token receives the tasks of a pushed two-job workflow (`needs`, outputs, secrets and variables),
 * streams logs with a secret in them and reports a success and a failure; the run, its jobs with steps, the masked
 * log, the task list and the commit statuses then show through the API. Also: the proto and JSON codecs, refusals
 * of the protocol (an unknown runner, another runner's task, a log with a gap), cancel and rerun, dispatch with
 * inputs, a workflow that does not parse, delete, and who may see and do what. Skips only without the Go runner,
 * which `.ci/run` builds.
 */
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ActionRunSchema, ActionRunJobSchema, ActionTaskResponseSchema, ListActionRunResponseSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';
import { RUNNER, actionsKit, runner } from './actions-helpers';

if (!RUNNER) console.warn('actions-runs.test: no actions-runner binary (see .ci/run); the runner tests are skipped');

const SECRET = 'sup3r-s3cret-value-9f2c';

let s: TestServer;
let alice: Account;
let bob: Account;
const { createRepo, putFile, registerRunner, waitForRuns } = actionsKit(() => s);

const TWO_JOBS = `name: CI
on:
  push:
    branches: [main]
    paths: ['**.txt', '.forgejo/**']
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      word: \${{ steps.out.outputs.word }}
    steps:
      - name: greet
        run: echo "secret is \${{ secrets.MY_SECRET }} and var is \${{ vars.GREETING }}"
      - id: out
        name: produce
        run: echo "word=bird" >> "$GITHUB_OUTPUT"
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - name: use
        run: echo "got \${{ needs.build.outputs.word }}"
      - name: fail
        run: exit 3
`;

beforeAll(async () => {
  s = await startTestServer();
  alice = await account(s, 'alice');
  bob = await account(s, 'bob');
});

afterAll(async () => {
  await s?.cleanup();
});

describe.skipIf(!RUNNER)('workflow runs with a protocol runner', () => {
  let repo: string;
  let sha: string;
  let agent: { uuid: string; token: string; id: number };
  let runId: number;

  beforeAll(async () => {
    repo = await createRepo(alice);
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/secrets/MY_SECRET`, jsonInit('PUT', { data: SECRET }, alice.h))).status).toBe(201);
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/variables/GREETING`, jsonInit('POST', { value: 'hello' }, alice.h))).status).toBe(201);
    agent = await registerRunner(repo, alice);
    sha = await putFile(repo, alice, '.forgejo/workflows/ci.yml', TWO_JOBS);
  });

  test('a push makes a run of the workflow, its first job waiting and the one that needs it blocked', async () => {
    const [found] = await waitForRuns(repo, alice, 1);
    expect(schemaErrors(ActionRunSchema, found)).toEqual([]);
    expect(found).not.toHaveProperty('pre_execution_error');
    expect(found).toMatchObject({ workflow_id: 'ci.yml', index_in_repo: 1, commit_sha: sha, event: 'push', trigger_event: 'push', prettyref: 'main', status: 'waiting' });
    expect(found.trigger_user.login).toBe(alice.name);
    expect(found.html_url).toBe(`${s.url}${repo}/actions/runs/1`);
    expect(JSON.parse(found.event_payload)).toMatchObject({ ref: 'refs/heads/main', after: sha });
    runId = found.id;
    const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/jobs`, { headers: alice.h }));
    expect(jobs.map((job) => [job.name, job.status, job.needs, job.runs_on])).toEqual([
      ['build', 'waiting', [], ['ubuntu-latest']],
      ['test', 'blocked', ['build'], ['ubuntu-latest']],
    ]);
    for (const job of jobs) expect(schemaErrors(ActionRunJobSchema, job)).toEqual([]);
    // Each job is a pending commit status of the pushed commit: written one after another once the run has
    // committed, so the second may come a moment after the run is listed.
    const statuses = async () => (await json<any>(await s.fetch(`/api/v1/repos/${repo}/commits/${sha}/status`, { headers: alice.h }))).statuses.map((st: any) => [st.context, st.status]).sort();
    await expect.poll(statuses, { timeout: 10_000 }).toEqual([
      ['CI / build (push)', 'pending'],
      ['CI / test (push)', 'pending'],
    ]);
  });

  test('a runner runs both jobs: outputs flow through needs, secrets reach the task, the failure is reported', async () => {
    const out = await runner(['run', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token, '-tasks', '2', '-wait', '30s']);
    expect(out.code, out.stderr).toBe(0);
    const [build, testJob] = out.lines;
    expect(build).toMatchObject({ job: 'build', result: 'success', outputs: { word: 'bird' } });
    expect(build.secrets).toEqual(expect.arrayContaining(['FORGEJO_TOKEN', 'GITEA_TOKEN', 'GITHUB_TOKEN', 'MY_SECRET']));
    expect(build.vars).toEqual({ GREETING: 'hello' });
    expect(build.context_keys).toEqual(expect.arrayContaining(['event', 'event_name', 'ref', 'repository', 'run_id', 'run_number', 'server_url', 'sha', 'token']));
    expect(testJob).toMatchObject({ job: 'test', result: 'failure' });

    const found = await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}`, { headers: alice.h }));
    expect(found.status).toBe('failure');
    expect(found.started).not.toBe('0001-01-01T00:00:00Z');
    expect(found.stopped).not.toBe('0001-01-01T00:00:00Z');
    const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/jobs`, { headers: alice.h }));
    expect(jobs.map((job) => [job.name, job.status, job.attempt])).toEqual([
      ['build', 'success', 1],
      ['test', 'failure', 1],
    ]);
    expect(jobs[1].steps.map((step: any) => [step.number, step.name, step.status])).toEqual([
      [0, 'Set up job', 'success'],
      [1, 'use', 'success'],
      [2, 'fail', 'failure'],
      [3, 'Complete job', 'failure'],
    ]);
    const statuses = await json<any>(await s.fetch(`/api/v1/repos/${repo}/commits/${sha}/status`, { headers: alice.h }));
    expect(statuses.state).toBe('failure');
    expect(statuses.statuses.map((st: any) => [st.context, st.status]).sort()).toEqual([
      ['CI / build (push)', 'success'],
      ['CI / test (push)', 'failure'],
    ]);
    expect(statuses.statuses.find((st: any) => st.context === 'CI / test (push)').target_url).toBe(`${s.url}${repo}/actions/runs/1/jobs/1`);
  });

  test("the log shows the steps' output with the secret masked; filters by step and text", async () => {
    const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/jobs`, { headers: alice.h }));
    const res = await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[0].id}/logs`, { headers: alice.h });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const log = await res.text();
    expect(log).toContain('secret is *** and var is hello');
    expect(log).not.toContain(SECRET);
    expect(log.split('\n')[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z runner: task \d+ job /);

    const second = await (await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[1].id}/logs?step=1`, { headers: alice.h })).text();
    expect(second).toContain('got bird');
    expect(second).not.toContain('runner: task');
    const filtered = await (await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[0].id}/logs?q=SECRET%20IS&qi=true&format=ndjson`, { headers: alice.h })).text();
    const rows = filtered.trim().split('\n').map((line) => JSON.parse(line));
    expect(rows).toHaveLength(1);
    expect(rows[0].content).toBe('secret is *** and var is hello');
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[0].id}/logs?attempt=9`, { headers: alice.h })).status).toBe(404);
  });

  test('the run logs are a ZIP with one plaintext log per job', async () => {
    const res = await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/logs`, { headers: alice.h });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const file = path.join(tmpdir(), `${uniq('logs')}.zip`);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    try {
      // Python's zipfile reads it back: the names and each entry's text.
      const script = 'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({n: z.read(n).decode() for n in z.namelist()}))';
      const { stdout } = await promisify(execFile)('python3', ['-c', script, file]);
      const entries = JSON.parse(stdout) as Record<string, string>;
      expect(Object.keys(entries)).toEqual(['0_build.txt', '1_test.txt']);
      expect(entries['0_build.txt']).toContain('secret is *** and var is hello');
      expect(entries['0_build.txt']).not.toContain(SECRET);
      expect(entries['1_test.txt']).toContain('got bird');
      const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/jobs`, { headers: alice.h }));
      expect(entries['0_build.txt']).toBe(await (await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[0].id}/logs`, { headers: alice.h })).text());
    } finally {
      await rm(file, { force: true });
    }
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs/999999/logs`, { headers: alice.h })).status).toBe(404);
  });

  test('the task list shows both tasks, newest first', async () => {
    const res = await s.fetch(`/api/v1/repos/${repo}/actions/tasks`, { headers: alice.h });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    const body = await json<any>(res);
    expect(schemaErrors(ActionTaskResponseSchema, body)).toEqual([]);
    expect(body.workflow_runs.map((task: any) => [task.name, task.status, task.run_number, task.head_branch, task.head_sha])).toEqual([
      ['test', 'failure', 1, 'main', sha],
      ['build', 'success', 1, 'main', sha],
    ]);
    const failed = await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/tasks?status=failure`, { headers: alice.h }));
    expect(failed.total_count).toBe(1);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo}/actions/tasks?status=nope`, { headers: alice.h }), 422, s.url);
  });

  test('the protocol refuses an unknown runner, another runner reporting a task, and stores nothing of a log with a gap', async () => {
    const unknown = await runner(['fetch-once', '-instance', s.url, '-uuid', agent.uuid, '-token', 'wrong']);
    expect(unknown.code).toBe(2);
    expect(unknown.lines[0]).toMatchObject({ error_code: 'unauthenticated' });

    const tasks = await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/tasks`, { headers: alice.h }));
    const taskId = tasks.workflow_runs[0].id;
    const other = await registerRunner(repo, alice);
    const refused = await runner(['raw', '-instance', s.url, '-uuid', other.uuid, '-token', other.token, '-call', 'update-log', '-task', String(taskId), '-index', '0', '-lines', 'intruder']);
    expect(refused.code).toBe(2);
    expect(refused.lines[0]).toMatchObject({ error_code: 'permission_denied' });

    // The owner's own finished log is archived: more lines are refused.
    const archived = await runner(['raw', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token, '-call', 'update-log', '-task', String(taskId), '-index', '999', '-lines', 'late']);
    expect(archived.code).toBe(2);
    expect(archived.lines[0]).toMatchObject({ error_code: 'already_exists' });

    // An idle runner is told there is nothing, and the version it may send next time.
    const idle = await runner(['fetch-once', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token]);
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.lines[0].task_id).toBe(0);
    expect(idle.lines[0].tasks_version).toBeGreaterThan(0);
  });

  test('a matrix makes one job per combination; UpdateLog keeps lines from the acknowledged index: a gap stores nothing, an overlap only its new lines', async () => {
    const logRepo = await createRepo(alice);
    const logRunner = await registerRunner(logRepo, alice);
    await putFile(logRepo, alice, '.forgejo/workflows/m.yml', 'on: [push]\njobs:\n  build:\n    strategy:\n      matrix:\n        os: [linux, mac]\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n');
    const [found] = await waitForRuns(logRepo, alice, 1);
    const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${logRepo}/actions/runs/${found.id}/jobs`, { headers: alice.h }));
    expect(jobs.map((job) => [job.name, job.status])).toEqual([
      ['build (linux)', 'waiting'],
      ['build (mac)', 'waiting'],
    ]);
    const taken = await runner(['fetch-once', '-instance', s.url, '-uuid', logRunner.uuid, '-token', logRunner.token]);
    const taskId = String(taken.lines[0].task_id);
    const log = (index: number, lines: string, extra: string[] = []) =>
      runner(['raw', '-instance', s.url, '-uuid', logRunner.uuid, '-token', logRunner.token, '-call', 'update-log', '-task', taskId, '-index', String(index), '-lines', lines, ...extra]);
    expect((await log(3, 'x,y')).lines[0]).toEqual({ ack_index: 0 });
    expect((await log(0, 'a,b')).lines[0]).toEqual({ ack_index: 2 });
    expect((await log(1, 'b,c')).lines[0]).toEqual({ ack_index: 3 });
    expect((await log(3, '', ['-no-more'])).lines[0]).toEqual({ ack_index: 3 });
    const text = await (await s.fetch(`/api/v1/repos/${logRepo}/actions/jobs/${jobs[0].id}/logs`, { headers: alice.h })).text();
    expect(text.trim().split('\n').map((line) => line.slice(line.indexOf(' ') + 1))).toEqual(['a', 'b', 'c']);
    expect((await log(3, 'd')).lines[0]).toMatchObject({ error_code: 'already_exists' });
  });

  test('of runners asking at once, one gets the job', async () => {
    const raceRepo = await createRepo(alice);
    const runners = await Promise.all([registerRunner(raceRepo, alice), registerRunner(raceRepo, alice), registerRunner(raceRepo, alice)]);
    await putFile(raceRepo, alice, '.forgejo/workflows/one.yml', 'on: [push]\njobs:\n  only:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n');
    await waitForRuns(raceRepo, alice, 1);
    const answers = await Promise.all(runners.map((one) => runner(['fetch-once', '-instance', s.url, '-uuid', one.uuid, '-token', one.token])));
    for (const answer of answers) expect(answer.code, `${JSON.stringify(answer.lines)} ${answer.stderr}`).toBe(0);
    expect(answers.filter((answer) => answer.lines[0].task_id > 0)).toHaveLength(1);
    const tasks = await json<any>(await s.fetch(`/api/v1/repos/${raceRepo}/actions/tasks`, { headers: alice.h }));
    expect(tasks.total_count).toBe(1);
  });

  test('rerunning the failed job runs it again as attempt 2 with the outputs it needs; the JSON codec works too', async () => {
    const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/jobs`, { headers: alice.h }));
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[1].id}/rerun`, { method: 'POST', headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[1].id}/rerun`, { method: 'POST', headers: alice.h })).status).toBe(204);
    const again = await json<any[]>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/jobs`, { headers: alice.h }));
    expect(again.map((job) => [job.name, job.status])).toEqual([
      ['build', 'success'],
      ['test', 'waiting'],
    ]);
    expect((await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}`, { headers: alice.h }))).status).toBe('waiting');
    // A rerun of a run still going is refused.
    await expectApiError(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/rerun`, { method: 'POST', headers: alice.h }), 400, s.url);

    const out = await runner(['run', '-json', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token, '-tasks', '1', '-wait', '30s']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.lines[0]).toMatchObject({ job: 'test', result: 'failure' });
    const log = await (await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[1].id}/logs`, { headers: alice.h })).text();
    expect(log).toContain('got bird');
    const first = await (await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[1].id}/logs?attempt=1`, { headers: alice.h })).text();
    expect(first).toContain('got bird');
    const job = await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/jobs/${jobs[1].id}`, { headers: alice.h }));
    expect(job).toMatchObject({ status: 'failure', attempt: 2 });
  });

  test('who may see and do what: private runs are 404 to others, writes need write access, token scopes apply', async () => {
    const secret = await createRepo(alice, true);
    expect((await s.fetch(`/api/v1/repos/${secret}/actions/runs`, { headers: bob.h })).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${secret}/actions/runs`)).status).toBe(404);
    expect((await s.fetch(`/api/v1/repos/${secret}/actions/runs`, { headers: alice.h })).status).toBe(200);
    // A public repository's runs are public; changing them is not.
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs`)).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/cancel`, { method: 'POST', headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}`, { method: 'DELETE', headers: bob.h })).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs/999999`, { headers: alice.h })).status).toBe(404);
    const readOnly = await s.host.tokens.create(
      { kind: 'system' },
      await s.host.users.resolve({ kind: 'system' }, alice.name),
      { name: uniq('ro'), scopes: ['read:repository'] },
    );
    const ro = { Authorization: `token ${readOnly.value}` };
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs`, { headers: ro })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runId}/cancel`, { method: 'POST', headers: ro })).status).toBe(403);
    const list = await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs?status=failure&event=push`, { headers: alice.h }));
    expect(matchesSchema(ListActionRunResponseSchema, list)).toBe(true);
    expect(list.total_count).toBe(1);
    expect((await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs?event=pull_request`, { headers: alice.h }))).total_count).toBe(0);
  });

  test('cancel stops the jobs of a run; the runner of a running task learns it at its next report', async () => {
    const cancelRepo = await createRepo(alice);
    const cancelRunner = await registerRunner(cancelRepo, alice);
    await putFile(
      cancelRepo,
      alice,
      '.gitea/workflows/slow.yaml',
      'on: [push]\njobs:\n  slow:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo one\n      - run: sleep 2\n      - run: echo never\n  later:\n    needs: [slow]\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo later\n',
    );
    const [found] = await waitForRuns(cancelRepo, alice, 1);
    const running = runner(['run', '-instance', s.url, '-uuid', cancelRunner.uuid, '-token', cancelRunner.token, '-tasks', '1', '-wait', '30s']);
    // Cancel once the runner has the task.
    for (let i = 0; i < 200; i++) {
      const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${cancelRepo}/actions/runs/${found.id}/jobs`, { headers: alice.h }));
      if (jobs[0].status === 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await s.fetch(`/api/v1/repos/${cancelRepo}/actions/runs/${found.id}/cancel`, { method: 'POST', headers: alice.h })).status).toBe(204);
    const out = await running;
    expect(out.code, out.stderr).toBe(0);
    expect(out.lines[0]).toMatchObject({ job: 'slow', result: 'cancelled' });
    const jobs = await json<any[]>(await s.fetch(`/api/v1/repos/${cancelRepo}/actions/runs/${found.id}/jobs`, { headers: alice.h }));
    expect(jobs.map((job) => job.status)).toEqual(['cancelled', 'cancelled']);
    const after = await json<any>(await s.fetch(`/api/v1/repos/${cancelRepo}/actions/runs/${found.id}`, { headers: alice.h }));
    expect(after.status).toBe('cancelled');
    // A finished run can be deleted, and is gone.
    expect((await s.fetch(`/api/v1/repos/${cancelRepo}/actions/runs/${found.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    expect((await s.fetch(`/api/v1/repos/${cancelRepo}/actions/runs/${found.id}`, { headers: alice.h })).status).toBe(404);
  });
});

describe('workflow runs without a runner', () => {
  test('dispatch runs a workflow_dispatch workflow with its inputs; refusals for a missing input, workflow or ref', async () => {
    const repo = await createRepo(alice);
    await putFile(
      repo,
      alice,
      '.forgejo/workflows/deploy.yml',
      "on:\n  workflow_dispatch:\n    inputs:\n      target:\n        required: true\n      level:\n        type: choice\n        options: [low, high]\n        default: low\njobs:\n  deploy:\n    runs-on: docker\n    steps:\n      - run: echo ${{ inputs.target }}\n",
    );
    const dispatch = (body: unknown, who = alice, file = 'deploy.yml') => s.fetch(`/api/v1/repos/${repo}/actions/workflows/${file}/dispatches`, jsonInit('POST', body, who.h));
    await expectApiError(await dispatch({ ref: 'main' }), 400, s.url);
    await expectApiError(await dispatch({ ref: 'main', inputs: { target: 'x', level: 'extreme' } }), 400, s.url);
    await expectApiError(await dispatch({ ref: 'main', inputs: { target: 'x' } }, alice, 'missing.yml'), 404, s.url);
    await expectApiError(await dispatch({ ref: 'no-such-branch', inputs: { target: 'x' } }), 404, s.url);
    await expectApiError(await dispatch({ inputs: { target: 'x' } }), 422, s.url);
    expect((await dispatch({ ref: 'main', inputs: { target: 'x' } }, bob)).status).toBe(403);
    expect((await dispatch({ ref: 'main', inputs: { target: 'prod' } })).status).toBe(204);
    const res = await dispatch({ ref: 'main', inputs: { target: 'staging' }, return_run_info: true });
    expect(res.status, await res.clone().text()).toBe(201);
    const info = await json<any>(res);
    expect(info).toMatchObject({ jobs: ['deploy'] });
    const runs = await waitForRuns(repo, alice, 2);
    expect(runs[0]).toMatchObject({ id: info.id, index_in_repo: info.run_number, event: 'workflow_dispatch', status: 'waiting' });
    expect(JSON.parse(runs[0].event_payload).inputs).toEqual({ target: 'staging', level: 'low' });
  });

  test('a workflow that does not parse is a failed run that says so; one the push does not match makes none', async () => {
    const repo = await createRepo(alice);
    await putFile(repo, alice, '.forgejo/workflows/other.yml', 'on:\n  push:\n    branches: [release]\njobs:\n  x:\n    runs-on: a\n    steps:\n      - run: true\n');
    await putFile(repo, alice, '.forgejo/workflows/broken.yml', 'on: [push]\njobs:\n  x: [unclosed\n');
    const runs = await waitForRuns(repo, alice, 1);
    // The first push (other.yml alone) matched nothing; the second made the broken workflow's run only.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const all = await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs`, { headers: alice.h }));
    expect(all.total_count).toBe(1);
    expect(runs[0]).toMatchObject({ workflow_id: 'broken.yml', status: 'failure' });
    // The run says why it did not run; a run that ran has no such field, as Forgejo's answers have none.
    expect(runs[0].pre_execution_error).toMatch(/\S/);
    expect(schemaErrors(ActionRunSchema, runs[0])).toEqual([]);
    expect(await json<any[]>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${runs[0].id}/jobs`, { headers: alice.h }))).toEqual([]);
  });
});
