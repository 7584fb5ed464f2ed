/**
 * Forgejo's webhooks of finished workflow runs (`action_run_failure`, `action_run_recover`, `action_run_success`)
 * end to end: a repository hook choosing them hears a run that fails, then a run of the same workflow and ref that
 * succeeds (a success, and a recovery since the run before it was not one), each an `ActionPayload` (action, the
 * run as the API shows it, its prior status, the run that finished before it); a cancelled run is a failure, as
 * in Forgejo; a hook without these events hears none of them; Slack and Discord hooks render them. The runs are
 * made by pushes and run by the Go runner client of `actions-helpers` (skipped without it, as actions-runs.test).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ActionRunSchema, schemaErrors } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, json, type Account } from './helpers';
import { RUNNER, actionsKit, runner } from './actions-helpers';
import { startReceiver, type Receiver, type ReceivedRequest } from './webhook-receiver';

const RUN_EVENTS = ['action_run_failure', 'action_run_recover', 'action_run_success'];

// Fails until the repository variable PASS is `yes`: the same workflow, on the same ref, fails and then succeeds.
const GATE = `name: Gate
on: [push]
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - name: gate
        run: test "\${{ vars.PASS }}" = yes
`;

let s: TestServer;
let receiver: Receiver;
let alice: Account;
const { createRepo, putFile, registerRunner, waitForRuns } = actionsKit(() => s);

beforeAll(async () => {
  s = await startTestServer({ webhook: { ALLOWED_HOST_LIST: 'loopback' } });
  receiver = await startReceiver();
  alice = await account(s, 'alice');
});

afterAll(async () => {
  await Promise.all([s?.cleanup(), receiver?.close()]);
});

/** A hook of `repo` delivering to the receiver under `path`. */
async function addHook(repo: string, path: string, events: string[], type = 'gitea', config: Record<string, string> = {}): Promise<any> {
  const res = await s.fetch(`/api/v1/repos/${repo}/hooks`, jsonInit('POST', { type, config: { url: `${receiver.url}${path}`, content_type: 'json', ...config }, events, active: true }, alice.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

const at = (path: string) => (r: ReceivedRequest) => r.url === path;
const runEvent = (r: ReceivedRequest) => RUN_EVENTS.includes(String(r.headers['x-forgejo-event']));

/** Runs the waiting jobs with the runner; `count` tasks. */
async function runTasks(agent: { uuid: string; token: string }, count = 1): Promise<any[]> {
  const out = await runner(['run', '-instance', s.url, '-uuid', agent.uuid, '-token', agent.token, '-tasks', String(count), '-wait', '30s']);
  expect(out.code, out.stderr).toBe(0);
  return out.lines;
}

describe.skipIf(!RUNNER)('webhooks of finished runs', () => {
  let repo: string;
  let agent: { uuid: string; token: string; id: number };
  let runsHook: any;
  let failedRun: any;

  beforeAll(async () => {
    repo = await createRepo(alice);
    runsHook = await addHook(repo, '/runs', RUN_EVENTS);
    await addHook(repo, '/push-only', ['push']);
    await addHook(repo, '/slack', ['action_run_failure'], 'slack', { channel: 'ci' });
    await addHook(repo, '/discord', ['action_run_failure'], 'discord');
    agent = await registerRunner(repo, alice);
  });

  test('the hook shows the events it chose, by their Forgejo names', async () => {
    expect(runsHook.events).toEqual(RUN_EVENTS);
    const edited = await json(await s.fetch(`/api/v1/repos/${repo}/hooks/${runsHook.id}`, jsonInit('PATCH', { events: ['ACTION_RUN_SUCCESS', 'push'], active: true }, alice.h)));
    expect(edited.events).toEqual(['push', 'action_run_success']);
    const back = await json(await s.fetch(`/api/v1/repos/${repo}/hooks/${runsHook.id}`, jsonInit('PATCH', { events: RUN_EVENTS, active: true }, alice.h)));
    expect(back.events).toEqual(RUN_EVENTS);
  });

  test('a failed run sends action_run_failure with the run, its prior status and no run before it', async () => {
    await putFile(repo, alice, '.forgejo/workflows/gate.yml', GATE);
    const [run] = await waitForRuns(repo, alice, 1);
    const [result] = await runTasks(agent);
    expect(result).toMatchObject({ job: 'check', result: 'failure' });

    const delivery = await receiver.waitFor(at('/runs'));
    expect(delivery.headers['x-forgejo-event']).toBe('action_run_failure');
    expect(delivery.headers['x-gitea-event']).toBe('action_run_failure');
    expect(delivery.headers['x-forgejo-event-type']).toBe('action_run_failure');
    const body = JSON.parse(delivery.body);
    expect(Object.keys(body)).toEqual(['action', 'run', 'prior_status', 'last_run']);
    expect(body).toMatchObject({ action: 'failure', last_run: null });
    // The job ran, so the run was running when it failed.
    expect(body.prior_status).toBe('running');
    expect(schemaErrors(ActionRunSchema, body.run)).toEqual([]);
    expect(body.run).toMatchObject({ id: run.id, index_in_repo: 1, workflow_id: 'gate.yml', status: 'failure', prettyref: 'main', title: run.title });
    expect(body.run.repository.full_name).toBe(repo);
    expect(body.run.trigger_user.login).toBe(alice.name);
    expect(body.run.stopped).not.toBe('0001-01-01T00:00:00Z');
    // What the API shows of the run, but for the fields that move with time.
    const shown = await json(await s.fetch(`/api/v1/repos/${repo}/actions/runs/${run.id}`, { headers: alice.h }));
    const { updated: _u, duration: _d, repository: _r, ...stable } = shown;
    expect(body.run).toMatchObject(stable);
    failedRun = body.run;
  });

  test('Slack and Discord render the failure as Forgejo does', async () => {
    const slack = JSON.parse((await receiver.waitFor(at('/slack'))).body);
    const runUrl = failedRun.html_url;
    const repoUrl = failedRun.repository.html_url;
    expect(slack.channel).toBe('ci');
    expect(slack.text).toBe(`<${runUrl}|${failedRun.title}> Action Failed in <${repoUrl}|${repo}> main`);
    const discord = JSON.parse((await receiver.waitFor(at('/discord'))).body);
    expect(discord.embeds).toHaveLength(1);
    expect(discord.embeds[0]).toMatchObject({ title: `${failedRun.title} Action Failed in ${repo} main`, url: runUrl, color: 0xff3232 });
    // The embed's author is the account that started the run.
    expect(discord.embeds[0].author.name).toBe(alice.name);
  });

  test('a success of the same workflow and ref after it sends action_run_success and action_run_recover', async () => {
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/variables/PASS`, jsonInit('POST', { value: 'yes' }, alice.h))).status).toBe(201);
    await putFile(repo, alice, 'again.txt', 'again');
    const [run] = await waitForRuns(repo, alice, 2);
    expect(run.id).not.toBe(failedRun.id);
    const [result] = await runTasks(agent);
    expect(result).toMatchObject({ job: 'check', result: 'success' });

    const success = await receiver.waitFor((r) => at('/runs')(r) && r.headers['x-forgejo-event'] === 'action_run_success');
    const recover = await receiver.waitFor((r) => at('/runs')(r) && r.headers['x-forgejo-event'] === 'action_run_recover');
    expect(recover.headers['x-gitea-event']).toBe('action_run_recover');
    for (const [delivery, action] of [
      [success, 'success'],
      [recover, 'recover'],
    ] as const) {
      const body = JSON.parse(delivery.body);
      expect(body).toMatchObject({ action, prior_status: 'running' });
      expect(body.run).toMatchObject({ id: run.id, index_in_repo: 2, status: 'success', workflow_id: 'gate.yml' });
      // The run that finished before it: the failed one, as it is now.
      expect(body.last_run).toMatchObject({ id: failedRun.id, status: 'failure', index_in_repo: 1 });
    }
    // Both with their own delivery ids. They are queued together (success, then recovery, as Forgejo queues them)
    // and sent at once, so they may arrive in either order.
    expect(success.headers['x-forgejo-delivery']).not.toBe(recover.headers['x-forgejo-delivery']);
    const sent = receiver.requests.filter(at('/runs')).map((r) => r.headers['x-forgejo-event']);
    expect(sent[0]).toBe('action_run_failure');
    expect(sent.slice(1).sort()).toEqual(['action_run_recover', 'action_run_success']);
  });

  test('another success sends action_run_success alone', async () => {
    await putFile(repo, alice, 'third.txt', 'third');
    const [run] = await waitForRuns(repo, alice, 3);
    await runTasks(agent);
    const delivery = await receiver.waitFor(at('/runs'), 4);
    expect(delivery.headers['x-forgejo-event']).toBe('action_run_success');
    expect(JSON.parse(delivery.body)).toMatchObject({ action: 'success', run: { id: run.id }, last_run: { index_in_repo: 2, status: 'success' } });
    // Nothing else follows for this run (no recovery after a success).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests.filter(at('/runs')).length).toBe(4);
  });

  test('a cancelled run is an action_run_failure with the cancelled run', async () => {
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/variables/PASS`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await putFile(repo, alice, 'fourth.txt', 'fourth');
    const [run] = await waitForRuns(repo, alice, 4);
    expect(run.status).toBe('waiting');
    expect((await s.fetch(`/api/v1/repos/${repo}/actions/runs/${run.id}/cancel`, { method: 'POST', headers: alice.h })).status).toBe(204);
    const delivery = await receiver.waitFor(at('/runs'), 5);
    expect(delivery.headers['x-forgejo-event']).toBe('action_run_failure');
    const body = JSON.parse(delivery.body);
    expect(body).toMatchObject({ action: 'failure', prior_status: 'waiting', run: { id: run.id, status: 'cancelled' }, last_run: { index_in_repo: 3, status: 'success' } });
  });

  test('a hook without these events hears none of them', async () => {
    const pushOnly = receiver.requests.filter(at('/push-only'));
    // It heard the pushes (four of them), and nothing else.
    expect(pushOnly.length).toBeGreaterThanOrEqual(4);
    expect(pushOnly.filter(runEvent)).toEqual([]);
    expect(pushOnly.every((r) => r.headers['x-forgejo-event'] === 'push')).toBe(true);
    // The Slack and Discord hooks chose failures only: the two failures reached them, the successes and the recovery
    // did not (queued in the same transactions as those to /runs, which arrived).
    await receiver.waitFor(at('/slack'), 2);
    await receiver.waitFor(at('/discord'), 2);
    expect(receiver.requests.filter(at('/slack')).map((r) => JSON.parse(r.body).text.includes('Failed'))).toEqual([true, true]);
    expect(receiver.requests.filter(at('/discord'))).toHaveLength(2);
    // The deliveries are recorded on the hook with their events (an attempt is recorded just after it is sent).
    let deliveries: any[] = [];
    for (let i = 0; i < 50 && deliveries.length < 5; i++) {
      const res = await s.fetch(`/api/v1/repos/${repo}/hooks/${runsHook.id}/deliveries`, { headers: alice.h });
      expect(res.status).toBe(200);
      deliveries = await json<any[]>(res);
      if (deliveries.length < 5) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Newest first. The success and the recovery of one run are queued together and may be sent in either order.
    const events = deliveries.map((d) => d.event);
    expect([events[0], events[4]]).toEqual(['action_run_failure', 'action_run_failure']);
    expect(events.slice(1, 4).sort()).toEqual(['action_run_recover', 'action_run_success', 'action_run_success']);
    expect(events[1]).toBe('action_run_success');
  });
});
