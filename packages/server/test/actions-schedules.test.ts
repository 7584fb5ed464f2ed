/**
 * Scheduled workflows as the service description binds them: a workflow of the default branch that declares
 * `schedule` becomes a plan; due specs start runs (once, however often the task ticks); disabling the repository's
 * Actions unit, or switching Actions off for the instance, removes the plans and cancels the scheduled runs still
 * waiting or running (a runner's running task learns it); enabling makes the plans again; changing the default branch
 * cancels them too and reads the plans from the new default branch. Pushes elsewhere leave the plans alone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SchedulesService, TasksService } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, type Account } from './helpers';
import { RUNNER, actionsKit, runner } from './actions-helpers';

let s: TestServer;
let alice: Account;
const kit = actionsKit(() => s);
const schedules = () => s.host.service(SchedulesService);

const NIGHTLY = "name: nightly\non:\n  schedule:\n    - cron: '30 2 * * *'\n    - cron: '*/15 * * * *'\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo scheduled\n      - run: sleep 3\n";

async function repoId(repo: string): Promise<number> {
  return (await json<{ id: number }>(await s.fetch(`/api/v1/repos/${repo}`, { headers: alice.h }))).id;
}

async function edit(repo: string, body: Record<string, unknown>): Promise<void> {
  const res = await s.fetch(`/api/v1/repos/${repo}`, jsonInit('PATCH', body, alice.h));
  expect(res.status, await res.clone().text()).toBe(200);
}

/** Waits until the repository has `count` plans (plans are made by a background job). */
async function waitForPlans(id: number, count: number): Promise<Awaited<ReturnType<SchedulesService['plans']>>> {
  for (let i = 0; i < 200; i++) {
    const plans = await schedules().plans(id);
    if (plans.schedules.length === count) return plans;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`repository ${id} never had ${count} plans`);
}

/** A time past every spec of the repository, so all are due. */
async function pastAllSpecs(id: number): Promise<number> {
  const { specs } = await schedules().plans(id);
  return Math.max(...specs.map((spec) => spec.next)) + 1;
}

async function scheduledRuns(repo: string): Promise<any[]> {
  return (await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs?event=schedule`, { headers: alice.h }))).workflow_runs;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await account(s, 'alice');
});

afterAll(async () => {
  await s?.cleanup();
});

describe('scheduled workflows', () => {
  test('a schedule on the default branch is a plan; due specs start one run each, once', async () => {
    const repo = await kit.createRepo(alice);
    const id = await repoId(repo);
    const sha = await kit.putFile(repo, alice, '.forgejo/workflows/nightly.yml', NIGHTLY);
    const plans = await waitForPlans(id, 1);
    expect(plans.schedules[0]).toMatchObject({ workflow_id: 'nightly.yml', workflow_dir: '.forgejo/workflows', ref: 'refs/heads/main', commit_sha: sha, title: 'nightly' });
    expect(plans.specs.map((spec) => spec.spec).sort()).toEqual(['*/15 * * * *', '30 2 * * *']);
    const now = Math.floor(Date.now() / 1000);
    for (const spec of plans.specs) expect(spec.next).toBeGreaterThan(now - 1);
    // Nothing is due yet.
    expect(await schedules().startDueAt(now - 1)).toBe('no scheduled workflow due');

    const later = await pastAllSpecs(id);
    // Two ticks at once (two processes): each due spec starts one run.
    const answers = await Promise.all([schedules().startDueAt(later), schedules().startDueAt(later)]);
    const started = answers.map((answer) => Number(/^(\d+) scheduled runs started$/.exec(answer)?.[1] ?? 0));
    expect(started[0]! + started[1]!).toBe(2);
    const runs = await scheduledRuns(repo);
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run).toMatchObject({ event: 'schedule', trigger_event: 'schedule', workflow_id: 'nightly.yml', commit_sha: sha, status: 'waiting', prettyref: 'main' });
    expect(runs.map((run) => run.ScheduleID)).toEqual([plans.schedules[0]!.id, plans.schedules[0]!.id]);
    // Each spec moved on to its next time.
    const moved = await schedules().plans(id);
    for (const spec of moved.specs) expect(spec.prev).toBeGreaterThan(0);
    for (const spec of moved.specs) expect(spec.next).toBeGreaterThan(spec.prev);
  });

  test('disabling the Actions unit removes the plans and cancels scheduled runs; enabling makes the plans again', async () => {
    const repo = await kit.createRepo(alice);
    const id = await repoId(repo);
    await kit.putFile(repo, alice, '.forgejo/workflows/nightly.yml', NIGHTLY);
    await waitForPlans(id, 1);
    await schedules().startDueAt(await pastAllSpecs(id));
    expect((await scheduledRuns(repo)).map((run) => run.status)).toEqual(['waiting', 'waiting']);

    await edit(repo, { has_actions: false });
    // The plans go in the edit's transaction: no tick after it starts anything.
    expect((await schedules().plans(id)).schedules).toEqual([]);
    await schedules().startDueAt(Number.MAX_SAFE_INTEGER - 1);
    // The runs API is hidden with the unit: enable it again to look (a background job cancels the runs).
    await edit(repo, { has_actions: true });
    await waitForPlans(id, 1);
    for (let i = 0; i < 200 && !(await scheduledRuns(repo)).every((run) => run.status === 'cancelled'); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    // Still the two runs from before: the tick while the unit was off started none here.
    expect((await scheduledRuns(repo)).map((run) => run.status)).toEqual(['cancelled', 'cancelled']);
  });

  test('changing the default branch cancels a waiting and a running scheduled run, and plans from the new branch', async () => {
    const repo = await kit.createRepo(alice);
    const id = await repoId(repo);
    await kit.putFile(repo, alice, '.forgejo/workflows/nightly.yml', NIGHTLY);
    const other = await kit.putFile(repo, alice, '.forgejo/workflows/weekly.yml', "on:\n  schedule:\n    - cron: '@weekly'\njobs:\n  x:\n    runs-on: nowhere\n    steps:\n      - run: true\n", 'other');
    await waitForPlans(id, 1);
    // A push to another branch leaves the plans as they were.
    expect((await schedules().plans(id)).schedules.map((plan) => plan.workflow_id)).toEqual(['nightly.yml']);
    await schedules().startDueAt(await pastAllSpecs(id));
    const [newer, older] = await scheduledRuns(repo);

    let running: Promise<Awaited<ReturnType<typeof runner>>> | undefined;
    if (RUNNER) {
      const agent = await kit.registerRunner(repo, alice);
      running = runner(['run', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token, '-tasks', '1', '-wait', '30s']);
      for (let i = 0; i < 400; i++) {
        const jobs = [...(await kit.jobs(repo, alice, older.id)), ...(await kit.jobs(repo, alice, newer.id))];
        if (jobs.some((job) => job.status === 'running')) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    await edit(repo, { default_branch: 'other' });
    // The branch was made from main: it has both workflows.
    const plans = await waitForPlans(id, 2);
    expect(plans.schedules.map((plan) => [plan.workflow_id, plan.ref, plan.commit_sha]).sort()).toEqual([
      ['nightly.yml', 'refs/heads/other', other],
      ['weekly.yml', 'refs/heads/other', other],
    ]);
    for (let i = 0; i < 200; i++) {
      if ((await scheduledRuns(repo)).every((run) => run.status === 'cancelled')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect((await scheduledRuns(repo)).map((run) => run.status)).toEqual(['cancelled', 'cancelled']);
    if (running) {
      const out = await running;
      expect(out.code, out.stderr).toBe(0);
      expect(out.lines[0]).toMatchObject({ result: 'cancelled' });
    }
  });

  test('switching Actions off for the instance removes every plan and cancels scheduled runs; on again remakes the plans', async () => {
    const repo = await kit.createRepo(alice);
    const id = await repoId(repo);
    await kit.putFile(repo, alice, '.forgejo/workflows/nightly.yml', NIGHTLY);
    await waitForPlans(id, 1);
    await schedules().startDueAt(await pastAllSpecs(id));
    const actions = s.host.settings.actions;
    actions.ENABLED = false;
    try {
      await schedules().reconcileInstanceSwitch();
      expect((await schedules().plans(id)).schedules).toEqual([]);
      // Once: a second start with Actions still off finds nothing to do.
      await schedules().reconcileInstanceSwitch();
    } finally {
      actions.ENABLED = true;
    }
    expect((await scheduledRuns(repo)).map((run) => run.status)).toEqual(['cancelled', 'cancelled']);
    await schedules().reconcileInstanceSwitch();
    await waitForPlans(id, 1);
  });

  test('a task whose runner went silent fails after the zombie timeout; a job nobody took is cancelled after its own', async () => {
    const repo = await kit.createRepo(alice);
    await kit.putFile(repo, alice, '.forgejo/workflows/ci.yml', 'on: [push]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n  b:\n    runs-on: nowhere\n    steps:\n      - run: true\n');
    const [run] = await kit.waitForRuns(repo, alice, 1);
    const settings = s.host.settings.actions;
    const saved = { ...settings };
    try {
      if (RUNNER) {
        const agent = await kit.registerRunner(repo, alice);
        const taken = await runner(['fetch-once', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token]);
        expect(taken.lines[0].task_id).toBeGreaterThan(0);
        settings.ZOMBIE_TASK_TIMEOUT = '-1s';
        expect(await s.host.service(TasksService).stopStaleTasks('zombie', new AbortController().signal)).toMatch(/not a duration/);
        settings.ZOMBIE_TASK_TIMEOUT = '1h';
        expect(await s.host.service(TasksService).stopStaleTasks('zombie', new AbortController().signal)).toBe('no task to stop');
        // Silent for more than a second: the runner took the task and never reported.
        settings.ZOMBIE_TASK_TIMEOUT = '1s';
        await new Promise((resolve) => setTimeout(resolve, 2100));
        expect(await s.host.service(TasksService).stopStaleTasks('zombie', new AbortController().signal)).toBe('1 tasks stopped');
      }
      settings.ABANDONED_JOB_TIMEOUT = '1s';
      // Times are whole seconds and the sweep takes jobs strictly older than the timeout: more than two seconds
      // after the job last changed (the zombie stop above may have touched it), it is older whatever the fractions.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect(await s.host.service(TasksService).cancelAbandonedJobs(new AbortController().signal)).toMatch(/abandoned jobs cancelled/);
    } finally {
      Object.assign(settings, saved);
    }
    const jobs = await kit.jobs(repo, alice, run.id);
    expect(jobs.map((job) => job.status)).toEqual(RUNNER ? ['failure', 'cancelled'] : ['cancelled', 'cancelled']);
    // A cancelled job decides the run before a failed one (Forgejo's order).
    expect((await json<any>(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${run.id}`, { headers: alice.h }))).status).toBe('cancelled');
  });
});
