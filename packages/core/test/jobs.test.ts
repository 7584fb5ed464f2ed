/**
 * Durable jobs: queued rows run by a worker under a lease, retried with backoff, failed after their attempts,
 * deduplicated by key, never run twice at once (not even by two hosts on one database), taken over when the lease
 * of a dead process expires, resumed after a restart, and given back when the host closes mid-run.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RepoHost, openStorage, type JobHandlers, type Storage } from '@repohost/core';
import { openTestHost, type TestHost } from '@repohost/test-support';

declare module '../src/jobs/kinds.js' {
  interface JobPayloads {
    'test.echo': { text: string };
    'test.flaky': { failures: number };
    'test.fail': Record<string, never>;
    'test.block': { name: string };
    'test.slow': Record<string, never>;
    'test.stubborn': Record<string, never>;
  }
}

/** A promise with its resolver, to hold a handler until the test lets it go. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('durable jobs', () => {
  let t: TestHost;
  let host: RepoHost;
  let raw: Storage;
  const others: RepoHost[] = [];
  const echoed: string[] = [];
  const calls = new Map<string, number>();
  const gates = new Map<string, { promise: Promise<void>; open(): void }>();
  /** Attempts of `test.block` running now, by name: two of one key must never overlap. */
  const runningByName = new Map<string, number>();
  let overlapped = false;
  let stubborn = gate();

  const handlers: JobHandlers = {
    'test.echo': {
      maxAttempts: 3,
      timeoutSeconds: 30,
      handle: async (_ctx, run) => {
        await run.progress(1, 2, 'half way');
        echoed.push(run.payload.text);
        await run.progress(2, 2, 'done');
      },
    },
    'test.flaky': {
      maxAttempts: 3,
      timeoutSeconds: 30,
      handle: async (_ctx, run) => {
        if (run.attempt <= run.payload.failures) throw new Error(`attempt ${run.attempt} failed`);
      },
    },
    'test.fail': {
      maxAttempts: 1,
      timeoutSeconds: 30,
      handle: async () => {
        throw new Error('x'.repeat(10_000));
      },
    },
    'test.block': {
      maxAttempts: 3,
      timeoutSeconds: 30,
      handle: async (_ctx, run) => {
        calls.set(run.payload.name, (calls.get(run.payload.name) ?? 0) + 1);
        const now = (runningByName.get(run.payload.name) ?? 0) + 1;
        runningByName.set(run.payload.name, now);
        if (now > 1) overlapped = true;
        try {
          const g = gates.get(run.payload.name);
          if (g) {
            await Promise.race([
              g.promise,
              new Promise((_, reject) => run.signal.addEventListener('abort', () => reject(run.signal.reason as Error), { once: true })),
            ]);
          }
        } finally {
          runningByName.set(run.payload.name, (runningByName.get(run.payload.name) ?? 1) - 1);
        }
      },
    },
    'test.stubborn': {
      maxAttempts: 3,
      timeoutSeconds: 30,
      // Ignores its signal: close must still return, and give the job back.
      handle: async () => {
        await stubborn.promise;
      },
    },
    'test.slow': {
      maxAttempts: 1,
      timeoutSeconds: 1,
      handle: async (_ctx, run) => {
        await new Promise((_, reject) => run.signal.addEventListener('abort', () => reject(run.signal.reason as Error), { once: true }));
      },
    },
  };

  /** A second host on the same database (another server process, as far as jobs can tell). */
  async function secondHost(): Promise<RepoHost> {
    const other = await RepoHost.open({ settings: host.settings, reconcile: false });
    other.jobs.register(handlers);
    others.push(other);
    return other;
  }

  beforeEach(async () => {
    t = await openTestHost({ database: { PATH: 'jobs.db' } });
    host = t.host;
    host.jobs.register(handlers);
    raw = await openStorage(host.settings.database);
    echoed.length = 0;
    calls.clear();
    gates.clear();
    runningByName.clear();
    overlapped = false;
    stubborn = gate();
  });
  afterEach(async () => {
    for (const g of gates.values()) g.open();
    stubborn.open();
    for (const other of others.splice(0)) await other.close();
    await raw.close();
    await t.cleanup();
  });

  const row = async (id: number) => (await raw.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>;
  const makeDue = (id: number) => raw.db.updateTable('job').set({ run_after_unix: 0 }).where('id', '=', id).execute();

  it('runs a queued job once, records progress, and wait() returns it done', async () => {
    const queued = await host.jobs.enqueue('test.echo', { text: 'hello' });
    expect(queued).toMatchObject({ kind: 'test.echo', key: '', status: 'queued', attempts: 0, finished_unix: 0 });
    expect(await host.jobs.runDue()).toBe(1);
    const job = await host.jobs.wait(queued.id, { timeoutMs: 1000 });
    expect(job).toMatchObject({ status: 'done', attempts: 1, progress_done: 2, progress_total: 2, progress_message: 'done', error: '' });
    expect(job.finished_unix).toBeGreaterThan(0);
    expect(echoed).toEqual(['hello']);
    // Nothing left to run.
    expect(await host.jobs.runDue()).toBe(0);
    expect(echoed).toEqual(['hello']);
    await expect(host.jobs.wait(999_999, { timeoutMs: 10 })).rejects.toThrow(/does not exist/);
    expect(await host.jobs.get(999_999)).toBeUndefined();
  });

  it('a job scheduled for later waits; wait() times out with the job as it is', async () => {
    const later = await host.jobs.enqueue('test.echo', { text: 'later' }, { runAt: Math.floor(Date.now() / 1000) + 3600 });
    expect(await host.jobs.runDue()).toBe(0);
    const job = await host.jobs.wait(later.id, { timeoutMs: 50 });
    expect(job.status).toBe('queued');
    await makeDue(later.id);
    expect(await host.jobs.runDue()).toBe(1);
    expect(echoed).toEqual(['later']);
  });

  it('retries a failing attempt with backoff, then succeeds', async () => {
    const queued = await host.jobs.enqueue('test.flaky', { failures: 2 });
    await host.jobs.runDue();
    let job = (await host.jobs.get(queued.id))!;
    expect(job).toMatchObject({ status: 'queued', attempts: 1, error: 'attempt 1 failed' });
    // Backing off: not due yet.
    expect(Number((await row(queued.id)).run_after_unix)).toBeGreaterThan(Date.now() / 1000 + 5);
    expect(await host.jobs.runDue()).toBe(0);
    await makeDue(queued.id);
    await host.jobs.runDue();
    job = (await host.jobs.get(queued.id))!;
    expect(job).toMatchObject({ status: 'queued', attempts: 2, error: 'attempt 2 failed' });
    await makeDue(queued.id);
    await host.jobs.runDue();
    job = (await host.jobs.get(queued.id))!;
    expect(job).toMatchObject({ status: 'done', attempts: 3, error: '' });
  });

  it('fails for good after its attempts, keeping the error as (truncated) text', async () => {
    const queued = await host.jobs.enqueue('test.fail', {});
    await host.jobs.runDue();
    const job = (await host.jobs.get(queued.id))!;
    expect(job.status).toBe('failed');
    expect(job.attempts).toBe(1);
    expect(job.error.length).toBeLessThanOrEqual(4001);
    expect(job.error.startsWith('xxxx')).toBe(true);
    expect(job.finished_unix).toBeGreaterThan(0);
  });

  it('an attempt past its time is aborted and fails', async () => {
    const queued = await host.jobs.enqueue('test.slow', {});
    await host.jobs.runDue();
    expect(await host.jobs.get(queued.id)).toMatchObject({ status: 'failed', error: 'timed out after 1 s' });
  });

  it('deduplicates queued jobs by key, and never runs two jobs of one key at once', async () => {
    const first = await host.jobs.enqueue('test.block', { name: 'a' }, { key: 'repo-1' });
    const again = await host.jobs.enqueue('test.block', { name: 'a' }, { key: 'repo-1' });
    expect(again.id).toBe(first.id);
    // Another key, or no key, is another job.
    const otherKey = await host.jobs.enqueue('test.block', { name: 'b' }, { key: 'repo-2' });
    expect(otherKey.id).not.toBe(first.id);
    // Concurrent enqueues of one key still make one job.
    const concurrent = await Promise.all([1, 2, 3, 4].map(() => host.jobs.enqueue('test.block', { name: 'c' }, { key: 'repo-3' })));
    expect(new Set(concurrent.map((j) => j.id)).size).toBe(1);

    gates.set('a', gate());
    host.jobs.start();
    await until(async () => (await host.jobs.get(first.id))!.status === 'running');
    // Running, no longer queued: a new enqueue makes a new job, which waits for the first.
    const second = await host.jobs.enqueue('test.block', { name: 'a' }, { key: 'repo-1' });
    expect(second.id).not.toBe(first.id);
    const other = await secondHost();
    expect(await other.jobs.runDue({ maxRounds: 1 })).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect((await host.jobs.get(second.id))!.status).toBe('queued');
    expect(calls.get('a')).toBe(1);
    gates.get('a')!.open();
    expect((await host.jobs.wait(second.id, { timeoutMs: 10_000 })).status).toBe('done');
    expect((await host.jobs.get(first.id))!.status).toBe('done');
    expect(calls.get('a')).toBe(2);
    expect((await host.jobs.wait(otherKey.id, { timeoutMs: 10_000 })).status).toBe('done');
    expect(overlapped).toBe(false);
  });

  it('a job running in one host is not run by a second host on the same database', async () => {
    gates.set('held', gate());
    const queued = await host.jobs.enqueue('test.block', { name: 'held' });
    host.jobs.start();
    await until(async () => (await host.jobs.get(queued.id))!.status === 'running');
    const other = await secondHost();
    expect(await other.jobs.runDue({ maxRounds: 1 })).toBe(0);
    expect(calls.get('held')).toBe(1);
    expect((await row(queued.id)).lease_owner).toBe(host.jobs.owner);
    gates.get('held')!.open();
    expect((await host.jobs.wait(queued.id, { timeoutMs: 10_000 })).status).toBe('done');
    expect(calls.get('held')).toBe(1);
  });

  it('a job whose lease expired (its process died) is taken over', async () => {
    const queued = await host.jobs.enqueue('test.echo', { text: 'orphan' });
    // What a crashed process leaves: running, under a lease nobody renews any more.
    await raw.db
      .updateTable('job')
      .set({ status: 'running', attempts: 1, lease_owner: 'dead-process', lease_until_unix: Math.floor(Date.now() / 1000) - 1 })
      .where('id', '=', queued.id)
      .execute();
    const other = await secondHost();
    expect(await other.jobs.runDue()).toBe(1);
    expect(await other.jobs.get(queued.id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(echoed).toEqual(['orphan']);
    // A live lease is respected.
    const live = await host.jobs.enqueue('test.echo', { text: 'alive' });
    await raw.db
      .updateTable('job')
      .set({ status: 'running', lease_owner: 'live-process', lease_until_unix: Math.floor(Date.now() / 1000) + 60 })
      .where('id', '=', live.id)
      .execute();
    expect(await other.jobs.runDue()).toBe(0);
  });

  it('a restart resumes queued jobs, and close gives back an interrupted one', async () => {
    const queued = await host.jobs.enqueue('test.echo', { text: 'after restart' });
    gates.set('interrupted', gate());
    const interrupted = await host.jobs.enqueue('test.block', { name: 'interrupted' });
    host.jobs.start();
    await until(async () => (await host.jobs.get(interrupted.id))!.status === 'running');
    await until(async () => (await host.jobs.get(queued.id))!.status === 'done');
    await host.close();
    // Given back: queued, its attempt not counted, no lease.
    const given = await row(interrupted.id);
    expect(given).toMatchObject({ status: 'queued', lease_owner: '' });
    expect(Number(given.attempts)).toBe(0);

    // The process starts again.
    const restarted = await RepoHost.open({ settings: host.settings });
    restarted.jobs.register(handlers);
    gates.delete('interrupted');
    try {
      restarted.jobs.start();
      expect((await restarted.jobs.wait(interrupted.id, { timeoutMs: 10_000 })).status).toBe('done');
      expect(calls.get('interrupted')).toBe(2);
    } finally {
      await restarted.close();
    }
  });

  it('finished jobs are pruned after a week; recent and unfinished ones stay', async () => {
    const old = await host.jobs.enqueue('test.echo', { text: 'old' });
    const recent = await host.jobs.enqueue('test.echo', { text: 'recent' });
    await host.jobs.runDue();
    const waiting = await host.jobs.enqueue('test.echo', { text: 'waiting' }, { runAt: Math.floor(Date.now() / 1000) + 3600 });
    await raw.db.updateTable('job').set({ finished_unix: Math.floor(Date.now() / 1000) - 8 * 86400 }).where('id', '=', old.id).execute();
    // A process prunes on its first round (then hourly).
    const other = await secondHost();
    await other.jobs.runDue();
    expect(await host.jobs.get(old.id)).toBeUndefined();
    expect((await host.jobs.get(recent.id))!.status).toBe('done');
    expect((await host.jobs.get(waiting.id))!.status).toBe('queued');
  });

  it('close does not wait for a handler that ignores its signal: after a grace period the job is given back', async () => {
    const queued = await host.jobs.enqueue('test.stubborn', {});
    host.jobs.start();
    await until(async () => (await host.jobs.get(queued.id))!.status === 'running');
    const started = Date.now();
    await host.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await row(queued.id)).toMatchObject({ status: 'queued', lease_owner: '' });
    expect(Number((await row(queued.id)).attempts)).toBe(0);
  });
});
