/**
 * The outbox outlives its host: a task queued by one host is delivered by the next one opened on the same
 * database. The default `[webhook] ALLOWED_HOST_LIST` (external) refuses loopback receivers: the delivery is
 * recorded as failed and nothing is sent. A receiver that never answers fails the attempt at `DELIVER_TIMEOUT`.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { RepoHost, SYSTEM, userActor, type DeliveryRecord, type HookOwner } from '@repohost/core';
import { createUser, openTestHost, type TestHost } from '@repohost/test-support';
import { uniq } from './helpers';
import { startReceiver, type Receiver } from './webhook-receiver';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

async function repoWithHook(host: RepoHost, hookPath: string): Promise<{ owner: Extract<HookOwner, { kind: 'repo' }>; hookId: number }> {
  const user = await createUser(host, uniq('u'));
  const actor = userActor(user);
  const access = await host.repos.create(actor, { name: uniq('r'), auto_init: true });
  const owner = { kind: 'repo', access } as const;
  const hook = await host.webhooks.create(actor, owner, { type: 'forgejo', config: { url: `${receiver.url}${hookPath}`, content_type: 'json' }, active: true });
  await host.webhooks.test(actor, access, hook.id, undefined);
  return { owner, hookId: hook.id };
}

describe('restart', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await openTestHost({ webhook: { ALLOWED_HOST_LIST: 'loopback' } });
  });
  afterAll(async () => t?.cleanup());

  test('a task queued before close is delivered by the next host on the same database', async () => {
    // Each host gets its own copy of the database settings; SQLite shares a file between them.
    const settings = structuredClone(t.host.settings);
    if (settings.database.DB_TYPE !== 'postgres') settings.database.PATH = path.join(t.workPath, 'restart.db');
    const first = await RepoHost.open({ settings });
    const hookPath = `/restart-${uniq('h')}`;
    const { owner, hookId } = await repoWithHook(first, hookPath);
    // Never started: nothing was sent, the task waits in the outbox.
    await first.close();
    expect(receiver.requests.filter((r) => r.url === hookPath)).toHaveLength(0);

    const second = await RepoHost.open({ settings });
    try {
      second.webhooks.delivery.start();
      const request = await receiver.waitFor((r) => r.url === hookPath);
      expect(request.headers['x-forgejo-event']).toBe('push');
      const access = await second.repos.resolve(SYSTEM, owner.access.owner.name, owner.access.repo.name);
      const rows = await waitForDeliveries(second, { kind: 'repo', access }, hookId, 1);
      expect(rows[0]!.is_succeed).toBe(1);
    } finally {
      await second.close();
    }
  });
});

describe('ALLOWED_HOST_LIST default (external)', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await openTestHost();
  });
  afterAll(async () => t?.cleanup());

  test('a loopback receiver is refused after resolution: a failed delivery, nothing sent, no retry', async () => {
    const hookPath = `/external-${uniq('h')}`;
    const { owner, hookId } = await repoWithHook(t.host, hookPath);
    t.host.webhooks.delivery.start();
    const rows = await waitForDeliveries(t.host, owner, hookId, 1);
    expect(rows[0]).toMatchObject({ is_succeed: 0, response_status: 0 });
    expect(rows[0]!.error).toContain('ALLOWED_HOST_LIST');
    expect(receiver.requests.filter((r) => r.url === hookPath)).toHaveLength(0);
  });
});

async function waitForDeliveries(host: RepoHost, owner: HookOwner, hookId: number, count: number): Promise<DeliveryRecord[]> {
  for (let i = 0; i < 300; i++) {
    const page = await host.webhooks.deliveries(SYSTEM, owner, hookId, { page: 1, limit: 50 });
    if (page.items.length >= count) return page.items;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no delivery recorded');
}

describe('DELIVER_TIMEOUT', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await openTestHost({ webhook: { ALLOWED_HOST_LIST: 'loopback', DELIVER_TIMEOUT: 1 } });
  });
  afterAll(async () => t?.cleanup());

  test('a receiver that never answers: the attempt fails after the timeout, and is tried again', async () => {
    const hookPath = `/timeout-${uniq('h')}`;
    receiver.answer(0);
    const { owner, hookId } = await repoWithHook(t.host, hookPath);
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
    const started = Date.now();
    t.host.webhooks.delivery.start();
    const [failed] = await waitForDeliveries(t.host, owner, hookId, 1);
    // Logged just after the record commits.
    for (let i = 0; i < 50 && !warnings.some((w) => w.includes('unable to deliver')); i++) await new Promise((r) => setTimeout(r, 20));
    warn.mockRestore();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(failed).toMatchObject({ is_succeed: 0, response_status: 0 });
    expect(failed!.error).toContain('timed out');
    // The operator's log says so too (the receiver may have had the request, and gets it again).
    const uuid = JSON.parse(failed!.request_headers)['X-Forgejo-Delivery'] as string;
    expect(warnings.filter((w) => w.includes(`delivery ${uuid}: unable to deliver`))).toEqual([expect.stringMatching(/timed out.*; next attempt in 5 s$/)]);
    // The retry (5 s later) is answered.
    const rows = await waitForDeliveries(t.host, owner, hookId, 2);
    expect(rows[0]).toMatchObject({ is_succeed: 1, response_status: 200 });
    expect(receiver.requests.filter((r) => r.url === hookPath)).toHaveLength(2);
  }, 20_000);
});
