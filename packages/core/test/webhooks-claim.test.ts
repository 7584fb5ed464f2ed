/**
 * The outbox's claim: several claimers taking due tasks while others finish theirs and new ones are queued, as the
 * delivery workers of several processes do. A claim for `n` tasks takes at most `n` (the pool bound a process keeps:
 * what it holds is what a kill -9 makes others send again), and never a task someone else holds.
 *
 * On PostgreSQL the candidates are chosen with `FOR UPDATE SKIP LOCKED` and a LIMIT. Written as
 * `UPDATE … WHERE id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)`, the planner may run the subquery again for each
 * row it updates, and with other claimers' and finishers' locks coming and going each run skips other rows: one claim
 * for 4 took 190 here. A process holding that many when killed explains the cluster test's CI failure (15
 * deliveries sent twice, where its pool of 8 allows 8).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RepoHost } from '@repohost/core';
import { openTestHost, type TestHost } from '@repohost/test-support';
import { WebhooksStore } from '../src/webhooks/store.js';
import type { HookTask } from '../src/webhooks/tables.js';

let t: TestHost;

function storeOf(host: RepoHost): WebhooksStore {
  return (host as unknown as { ctx: { store(c: typeof WebhooksStore): WebhooksStore } }).ctx.store(WebhooksStore);
}

beforeAll(async () => {
  t = await openTestHost({ database: { PATH: 'claims.db' } });
});
afterAll(async () => {
  await t?.cleanup();
});

const nowUnix = () => Math.floor(Date.now() / 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('claims racing with finishes and new tasks each take at most what they ask for, and no task twice at once', async () => {
  const store = storeOf(t.host);
  const hookId = 1_000_000 + Math.floor(Math.random() * 1_000_000);
  const queue = (count: number) => {
    const now = nowUnix();
    const task = { hook_id: hookId, repo_id: 0, event_type: 'issues', payload_content: '{}', is_delivered: 0, attempts: 0, next_attempt_unix: now, created_unix: now };
    return store.insertTasks(Array.from({ length: count }, () => ({ ...task, uuid: randomUUID() })));
  };
  await queue(150);

  const wanted = 4;
  const oversized: { owner: string; asked: number; got: number }[] = [];
  /** Task id → its holder now: a second holder while the first has not finished is a double claim. */
  const holders = new Map<number, string>();
  const doubleClaims: string[] = [];
  let claims = 0;
  let taken = 0;
  const deadline = Date.now() + 1500;

  const claimer = async (owner: string) => {
    const finishing = new Set<Promise<void>>();
    while (Date.now() < deadline) {
      const now = nowUnix();
      const tasks: HookTask[] = await store.claimDue({ owner, now, leaseUntil: now + 60 }, wanted);
      claims++;
      taken += tasks.length;
      if (tasks.length > wanted) oversized.push({ owner, asked: wanted, got: tasks.length });
      for (const task of tasks) {
        const other = holders.get(task.id);
        if (other !== undefined) doubleClaims.push(`${task.id}: ${other} and ${owner}`);
        holders.set(task.id, owner);
        // Each attempt ends a little later, some for good and some back in the queue at once: locks come and go
        // under the other claimers' statements.
        const done: Promise<void> = sleep(Math.random() * 15)
          .then(async () => {
            holders.delete(task.id);
            await store.finishAttempt(task.id, owner, { delivered: Math.random() < 0.3, nextAttemptUnix: nowUnix(), counted: true });
          })
          .finally(() => finishing.delete(done));
        finishing.add(done);
      }
      if (tasks.length === 0) await sleep(5);
    }
    await Promise.all(finishing);
  };
  const producer = async () => {
    while (Date.now() < deadline) {
      await queue(40);
      await sleep(100);
    }
  };
  await Promise.all([producer(), ...['a', 'b', 'c', 'd'].map((name) => claimer(`claimer-${name}`))]);

  // The race happened: many claims, most of them taking something.
  expect(claims).toBeGreaterThan(100);
  expect(taken).toBeGreaterThan(claims / 2);
  expect(oversized).toEqual([]);
  expect(doubleClaims).toEqual([]);
});
