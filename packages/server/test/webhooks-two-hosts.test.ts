/**
 * Webhook deliveries with two hosts on one database (one SQLite file, or one PostgreSQL schema), both running their
 * delivery workers against one receiver, as two processes behind a load balancer would: each task is sent once and
 * each attempt recorded once; a failed attempt is tried again once, by whichever host claims it; a task whose
 * claimer died (its lease in the past) is taken over, one under a live lease is left to its holder; a redelivery
 * asked through one host's API is claimed like any task, and refused (409) while an attempt of it is being sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { HookDeliveryItemSchema, RepoHost, SYSTEM, matchesSchema, openStorage, userActor, type ApiHookDeliveryItem, type DeliveryRecord, type HookOwner, type RepoAccess, type Storage, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';
import { startReceiver, type ReceivedRequest, type Receiver } from './webhook-receiver';

const nowUnix = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let s: TestServer;
let a: RepoHost;
let b: RepoHost;
let raw: Storage;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  // Host A serves the API; host B is a second process on the same database (a file for SQLite, the schema for
  // PostgreSQL), opened as one would be: migrations already done, no start-up repair of A's work.
  s = await startTestServer({ webhook: { ALLOWED_HOST_LIST: 'loopback' }, database: { PATH: 'hooks.db' } });
  a = s.host;
  b = await RepoHost.open({ settings: structuredClone(a.settings), reconcile: false });
  // A third connection, for what only a test does: setting a lease as a dead or busy process would have left it.
  raw = await openStorage(a.settings.database);
});
afterAll(async () => {
  await b?.close();
  await raw?.close();
  await s?.cleanup();
  await receiver?.close();
});

/** Each test queues its tasks with both workers stopped, then starts them together (they race for the tasks). */
beforeEach(async () => {
  await Promise.all([a.webhooks.delivery.stop(), b.webhooks.delivery.stop()]);
});
function startBoth(): void {
  a.webhooks.delivery.start();
  b.webhooks.delivery.start();
}

interface Hooked {
  user: User;
  token: string;
  access: RepoAccess;
  owner: Extract<HookOwner, { kind: 'repo' }>;
  hookId: number;
  hookPath: string;
  full: string;
}

async function repoWithHook(prefix: string): Promise<Hooked> {
  const user = await createUser(a, uniq('u'));
  const token = await createToken(a, user.name);
  const access = await a.repos.create(userActor(user), { name: uniq('r'), auto_init: true });
  const owner = { kind: 'repo', access } as const;
  const hookPath = `/${prefix}-${uniq('h')}`;
  const hook = await a.webhooks.create(userActor(user), owner, { type: 'forgejo', config: { url: `${receiver.url}${hookPath}`, content_type: 'json' }, active: true });
  return { user, token, access, owner, hookId: hook.id, hookPath, full: `${user.name}/${access.repo.name}` };
}

function at(pathname: string) {
  return (r: ReceivedRequest) => r.url === pathname;
}

async function deliveries(h: Hooked): Promise<DeliveryRecord[]> {
  return (await a.webhooks.deliveries(SYSTEM, h.owner, h.hookId, { page: 1, limit: 100 })).items;
}

async function waitForDeliveries(h: Hooked, count: number, timeoutMs = 45_000): Promise<DeliveryRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await deliveries(h);
    if (rows.length >= count) return rows;
    if (Date.now() > deadline) throw new Error(`${rows.length} of ${count} deliveries recorded within ${timeoutMs} ms`);
    await sleep(50);
  }
}

interface TaskRow {
  id: number;
  uuid: string;
  attempts: number;
  is_delivered: number;
  lease_owner: string;
  lease_until_unix: number;
}

async function tasksOf(h: Hooked): Promise<TaskRow[]> {
  const rows = await raw.db
    .selectFrom('hook_task')
    .select(['id', 'uuid', 'attempts', 'is_delivered', 'lease_owner', 'lease_until_unix'])
    .where('hook_id', '=', h.hookId)
    .orderBy('id')
    .execute();
  return rows.map((r: Record<string, unknown>) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts), is_delivered: Number(r.is_delivered), lease_until_unix: Number(r.lease_until_unix) }) as TaskRow);
}

async function setLease(taskId: number, owner: string, until: number): Promise<void> {
  await raw.db.updateTable('hook_task').set({ lease_owner: owner, lease_until_unix: until }).where('id', '=', taskId).execute();
}

/** `POST …/hooks/{id}/tests` through host A's API: one more task in the outbox. */
async function queueTest(h: Hooked): Promise<void> {
  const res = await s.fetch(`/api/v1/repos/${h.full}/hooks/${h.hookId}/tests`, { method: 'POST', headers: tokenHeader(h.token) });
  expect(res.status).toBe(204);
}

describe('two hosts delivering from one outbox', () => {
  test('20 tasks queued through both hosts, both workers running: each is sent once and recorded once', async () => {
    const h = await repoWithHook('once');
    for (let i = 0; i < 20; i++) {
      if (i % 2 === 0) await queueTest(h);
      else await b.webhooks.test(userActor(h.user), h.access, h.hookId, undefined);
    }
    startBoth();
    await receiver.waitFor(at(h.hookPath), 20, 45_000);
    const rows = await waitForDeliveries(h, 20);
    // Both workers keep polling; a second claim of a task would be sent (and recorded) by now.
    await sleep(1500);
    const requests = receiver.requests.filter(at(h.hookPath));
    expect(requests).toHaveLength(20);
    expect(new Set(requests.map((r) => r.headers['x-forgejo-delivery'])).size).toBe(20);
    expect(await deliveries(h)).toHaveLength(20);
    expect(rows.every((row) => row.is_succeed === 1 && row.is_redelivery === 0)).toBe(true);
    expect(new Set(rows.map((row) => row.uuid)).size).toBe(20);
    // Every task: one attempt, done, its lease given up.
    const tasks = await tasksOf(h);
    expect(tasks).toHaveLength(20);
    for (const task of tasks) expect(task).toMatchObject({ attempts: 1, is_delivered: 1, lease_owner: '', lease_until_unix: 0 });
  }, 90_000);

  test('a failed attempt is made again once, after its backoff, by whichever host claims it', async () => {
    const h = await repoWithHook('retry');
    for (let i = 0; i < 4; i++) await queueTest(h);
    // The first request to arrive fails; every other one succeeds.
    receiver.answer(500);
    startBoth();
    await receiver.waitFor(at(h.hookPath), 5, 45_000);
    const rows = await waitForDeliveries(h, 5);
    await sleep(1500);
    expect(receiver.requests.filter(at(h.hookPath))).toHaveLength(5);
    expect(await deliveries(h)).toHaveLength(5);
    const byTask = new Map<string, DeliveryRecord[]>();
    for (const row of rows) byTask.set(row.uuid, [...(byTask.get(row.uuid) ?? []), row]);
    const retried = [...byTask.values()].filter((attempts) => attempts.length > 1);
    expect(retried).toHaveLength(1);
    // Newest first: the retry succeeded, the first attempt failed with the receiver's 500.
    expect(retried[0]!.map((row) => [row.is_succeed, row.response_status])).toEqual([
      [1, 200],
      [0, 500],
    ]);
    const tasks = await tasksOf(h);
    expect(tasks.map((task) => task.attempts).sort()).toEqual([1, 1, 1, 2]);
    expect(tasks.every((task) => task.is_delivered === 1 && task.lease_owner === '')).toBe(true);
  }, 90_000);

  test("a dead claimer's task (lease in the past) is taken over; one under a live lease is left to its holder until it lapses", async () => {
    const h = await repoWithHook('lease');
    await queueTest(h);
    await queueTest(h);
    const [dead, busy] = await tasksOf(h);
    // Claimed by processes that never recorded an outcome: one died a while ago, one is still sending.
    await setLease(dead!.id, 'gone-host:4242:0123456789ab', nowUnix() - 5);
    await setLease(busy!.id, 'busy-host:4343:0123456789ab', nowUnix() + 3600);
    startBoth();
    const [taken] = await waitForDeliveries(h, 1);
    expect(taken).toMatchObject({ uuid: dead!.uuid, is_succeed: 1 });
    await receiver.waitFor(at(h.hookPath), 1);
    await sleep(1500);
    // The live lease is respected: not sent, not recorded, the holder's lease untouched.
    expect(receiver.requests.filter(at(h.hookPath)).map((r) => r.headers['x-forgejo-delivery'])).toEqual([dead!.uuid]);
    expect(await deliveries(h)).toHaveLength(1);
    const waiting = (await tasksOf(h)).find((task) => task.id === busy!.id)!;
    expect(waiting).toMatchObject({ is_delivered: 0, attempts: 0, lease_owner: 'busy-host:4343:0123456789ab' });

    // That holder dies too: once its lease is past, the task is taken over (the hosts look again on their own).
    await setLease(busy!.id, 'busy-host:4343:0123456789ab', nowUnix() - 1);
    const rows = await waitForDeliveries(h, 2, 30_000);
    expect(rows.map((row) => row.uuid).sort()).toEqual([dead!.uuid, busy!.uuid].sort());
    await sleep(1500);
    expect(receiver.requests.filter(at(h.hookPath))).toHaveLength(2);
    for (const task of await tasksOf(h)) expect(task).toMatchObject({ attempts: 1, is_delivered: 1, lease_owner: '' });
  }, 90_000);

  test('150 deliveries of one hook recorded by both hosts: pruning keeps the newest, drops only delivered tasks, loses no attempt', async () => {
    const h = await repoWithHook('prune');
    for (let i = 0; i < 150; i++) await (i % 2 === 0 ? a : b).webhooks.test(userActor(h.user), h.access, h.hookId, undefined);
    startBoth();
    await receiver.waitFor(at(h.hookPath), 150, 60_000);
    // Recording finishes a moment after the last request; then no task is left pending or held.
    const deadline = Date.now() + 30_000;
    let tasks = await tasksOf(h);
    while (tasks.some((task) => task.is_delivered === 0 || task.lease_owner !== '') && Date.now() < deadline) {
      await sleep(50);
      tasks = await tasksOf(h);
    }
    await sleep(1000);
    const requests = receiver.requests.filter(at(h.hookPath));
    expect(requests).toHaveLength(150);
    expect(new Set(requests.map((r) => r.headers['x-forgejo-delivery'])).size).toBe(150);
    tasks = await tasksOf(h);
    expect(tasks.every((task) => task.is_delivered === 1 && task.attempts === 1 && task.lease_owner === '')).toBe(true);
    // Deliveries past the newest 100 went (pruned every 25th record, by whichever host made it), and with them
    // their tasks; what is left is the newest, each of a task still there, one per task.
    const all = (await raw.db.selectFrom('hook_delivery').select(['id', 'task_id']).where('hook_id', '=', h.hookId).orderBy('id', 'desc').execute()).map((r: { id: number | string; task_id: number | string }) => ({ id: Number(r.id), task: Number(r.task_id) }));
    expect(all.length).toBeGreaterThanOrEqual(100);
    expect(all.length).toBeLessThan(150);
    expect(new Set(all.map((row) => row.task)).size).toBe(all.length);
    // The API's first page is the newest of them.
    const page = await deliveries(h);
    expect(page.map((row) => row.id)).toEqual(all.slice(0, page.length).map((row) => row.id));
    expect(new Set(tasks.map((task) => task.id))).toEqual(new Set(all.map((row) => row.task)));
  }, 120_000);

  test('a redelivery through the API is claimed like any task, once; while an attempt is being sent it is a 409', async () => {
    const h = await repoWithHook('again');
    await queueTest(h);
    startBoth();
    const [first] = await waitForDeliveries(h, 1);
    const [task] = await tasksOf(h);
    const attemptsUrl = `/api/v1/repos/${h.full}/hooks/${h.hookId}/deliveries/${first!.id}/attempts`;

    // Another process is sending it right now (a live lease): refused, and nothing changes.
    await setLease(task!.id, 'busy-host:4343:0123456789ab', nowUnix() + 3600);
    const refused = await s.fetch(attemptsUrl, { method: 'POST', headers: tokenHeader(h.token) });
    expect(await expectApiError(refused, 409, s.url)).toContain('being sent');
    expect((await tasksOf(h))[0]).toMatchObject({ is_delivered: 1, attempts: 1, lease_owner: 'busy-host:4343:0123456789ab' });

    // Its lease lapsed (the holder died): the redelivery is queued, taken by one of the hosts, sent and recorded once.
    await setLease(task!.id, 'busy-host:4343:0123456789ab', nowUnix() - 1);
    const accepted = await s.fetch(attemptsUrl, { method: 'POST', headers: tokenHeader(h.token) });
    expect(accepted.status).toBe(202);
    const rows = await waitForDeliveries(h, 2);
    await sleep(1500);
    expect(receiver.requests.filter(at(h.hookPath)).map((r) => r.headers['x-forgejo-delivery'])).toEqual([task!.uuid, task!.uuid]);
    const list = await s.fetch(`/api/v1/repos/${h.full}/hooks/${h.hookId}/deliveries`, { headers: tokenHeader(h.token) });
    const items = await json<ApiHookDeliveryItem[]>(list);
    expect(list.status).toBe(200);
    expect(items).toHaveLength(2);
    for (const item of items) expect(matchesSchema(HookDeliveryItemSchema, item)).toBe(true);
    expect(items.map((item) => item.redelivery)).toEqual([true, false]);
    expect(rows[0]).toMatchObject({ is_redelivery: 1, is_succeed: 1 });
    expect((await tasksOf(h))[0]).toMatchObject({ is_delivered: 1, attempts: 1, lease_owner: '', lease_until_unix: 0 });

    // A delivery that does not exist: 404 from either state.
    const missing = await s.fetch(`/api/v1/repos/${h.full}/hooks/${h.hookId}/deliveries/999999/attempts`, { method: 'POST', headers: tokenHeader(h.token) });
    await expectApiError(missing, 404, s.url);
    // Another account may not ask.
    const other = await createUser(a, uniq('o'));
    const otherToken = await createToken(a, other.name);
    const forbidden = await s.fetch(attemptsUrl, jsonInit('POST', {}, tokenHeader(otherToken)));
    expect([403, 404]).toContain(forbidden.status);
  }, 90_000);
});
