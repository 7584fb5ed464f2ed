/**
 * Durable background jobs. A job is a row: `enqueue` writes it (in the caller's transaction when given one), a
 * worker per host claims due rows with one conditional UPDATE, holds them under a lease it renews while the
 * handler runs, and records the outcome. A process that dies leaves its lease to expire, and whichever process
 * polls next takes the job over, so work survives restarts and two processes on one database never run the same
 * job. Jobs sharing a kind and key never run at once, and a queued one absorbs later enqueues of the same key.
 */
import type { CoreContext, CoreTransaction } from '../context.js';
import { forEachRowInBatches } from '../security/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { newLeaseOwner, nowUnix, renewLease } from '../storage/index.js';
import type { JobKind, JobPayloads } from './kinds.js';
import { JobsStore } from './store.js';
import type { JobRow, JobStatus } from './tables.js';
import './events.js';

/** A job as callers see it. `key` is '' when the job has none. */
export interface Job {
  id: number;
  kind: string;
  key: string;
  status: JobStatus;
  attempts: number;
  progress_done: number;
  progress_total: number;
  progress_message: string;
  error: string;
  created_unix: number;
  updated_unix: number;
  finished_unix: number;
}

/** One attempt of a job, as its handler receives it. */
export interface JobRun<P> {
  job: Job;
  payload: P;
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted when the attempt times out, the host closes, or another process took the job over. */
  signal: AbortSignal;
  /** Records how far the job got (shown to whoever reads the job). */
  progress(done: number, total: number, message?: string): Promise<void>;
}

/** How a kind of job runs: its handler (which must be idempotent), its attempts and its time per attempt. */
export interface JobHandler<K extends JobKind> {
  /** Attempts before the job stays `failed`; throwing fails an attempt, retried with backoff until then. */
  maxAttempts: number;
  /** Seconds an attempt may take; then its signal is aborted. */
  timeoutSeconds: number;
  handle(ctx: CoreContext, run: JobRun<JobPayloads[K]>): Promise<void>;
}

export type JobHandlers = { [K in JobKind]?: JobHandler<K> };

export interface EnqueueOptions {
  /** Jobs of one kind and key never run at once; while one is queued, enqueue returns it instead of adding one. */
  key?: string;
  /** Not before this (unix seconds); default now. */
  runAt?: number;
  /** Write the job in this transaction: it exists (and runs) only if the transaction commits. */
  tx?: CoreTransaction;
}

/** Jobs one process runs at once. */
const POOL_SIZE = 3;
/** When nothing is due, look again after this long (another process may have queued jobs, or died). */
const IDLE_POLL_MS = 3000;
/** Retry backoff: 10 s, 20 s, 40 s, … capped at an hour. */
const FIRST_RETRY_SECONDS = 10;
const MAX_RETRY_SECONDS = 3600;
/** Finished jobs are kept this long, then pruned (at most once an hour). */
const KEEP_FINISHED_SECONDS = 7 * 86400;
const PRUNE_EVERY_SECONDS = 3600;
/** How long `close()` waits for aborted handlers to return before giving their jobs back. */
const CLOSE_GRACE_MS = 5000;
const MAX_ERROR_LENGTH = 4000;
const MAX_PROGRESS_MESSAGE_LENGTH = 1000;
const MAX_KEY_LENGTH = 255;

/** The reasons a handler's signal is aborted with. */
export class JobAbortedError extends Error {
  constructor(
    readonly reason: 'timeout' | 'closing' | 'lease-lost',
    message: string,
  ) {
    super(message);
    this.name = 'JobAbortedError';
  }
}

export function toJob(row: JobRow): Job {
  return {
    id: Number(row.id),
    kind: row.kind,
    key: row.key,
    status: row.status,
    attempts: Number(row.attempts),
    progress_done: Number(row.progress_done),
    progress_total: Number(row.progress_total),
    progress_message: row.progress_message,
    error: row.error,
    created_unix: Number(row.created_unix),
    updated_unix: Number(row.updated_unix),
    finished_unix: Number(row.finished_unix),
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

interface InFlight {
  controller: AbortController;
  done: Promise<void>;
  row: JobRow;
}

export class JobsService {
  /** This process, as lease owner: host name, pid and a per-host random part (several hosts may share a process). */
  readonly owner = newLeaseOwner();
  private readonly handlers = new Map<string, JobHandler<JobKind>>();
  private readonly inFlight = new Map<number, InFlight>();
  private readonly waiters = new Map<number, Set<() => void>>();
  private stopped = true;
  private closed = false;
  private filling: Promise<Promise<void>[]> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private lastPruneUnix = 0;

  constructor(private readonly ctx: CoreContext) {}

  /** A claim holds a job this long unless renewed (`[repohost] LEASE_SECONDS`); renewed every third of it while the handler runs. */
  private get leaseSeconds(): number {
    return this.ctx.settings.repohost.LEASE_SECONDS;
  }

  private get store(): JobsStore {
    return this.ctx.store(JobsStore);
  }

  /** After a commit that queued a job, look for due jobs at once. */
  subscribe(): void {
    this.ctx.events.on('job.enqueued', () => this.wake());
  }

  /** Registers the handlers of job kinds (the host gives those the domain records declare; embedders and tests may add their own). */
  register(handlers: JobHandlers): void {
    for (const [kind, handler] of Object.entries(handlers) as [string, JobHandler<JobKind> | undefined][]) {
      if (handler) this.handlers.set(kind, handler);
    }
  }

  /** Queues a job; with a key, returns the job of that kind and key already queued instead of adding one. */
  async enqueue<K extends JobKind>(kind: K, payload: JobPayloads[K], options: EnqueueOptions = {}): Promise<Job> {
    const key = options.key ?? '';
    if (key.length > MAX_KEY_LENGTH) throw new ValidationError('key', `must be at most ${MAX_KEY_LENGTH} characters`);
    // PostgreSQL text holds no NUL.
    if (key.includes('\u0000')) throw new ValidationError('key', 'must not contain NUL');
    const now = nowUnix();
    if (options.runAt !== undefined && !Number.isFinite(options.runAt)) throw new ValidationError('runAt', 'must be a time in unix seconds');
    const runAfter = options.runAt === undefined ? now : Math.max(0, Math.floor(options.runAt));
    const text = JSON.stringify(payload ?? {});
    const write = async (tx: CoreTransaction): Promise<JobRow> => {
      const store = tx.store(JobsStore);
      if (key !== '') {
        await store.lockKey(kind, key);
        const queued = await store.findQueued(kind, key);
        if (queued) return queued;
      }
      const row = await store.insert({
        kind,
        key,
        payload: text,
        status: 'queued',
        attempts: 0,
        run_after_unix: runAfter,
        lease_owner: '',
        lease_until_unix: 0,
        progress_done: 0,
        progress_total: 0,
        progress_message: '',
        error: '',
        created_unix: now,
        updated_unix: now,
        finished_unix: 0,
      });
      tx.emit('job.enqueued', { job: row });
      return row;
    };
    const row = options.tx ? await write(options.tx) : await this.ctx.transaction(write);
    return toJob(row);
  }

  /**
   * Rewrites the stored payloads of one kind's jobs, done and failed ones too, inside the caller's transaction:
   * for the domain that owns the payload to change what it keeps there (re-encrypted credentials). `rewrite` returns
   * the new payload, or undefined to leave the job as it is.
   */
  async rewritePayloads<K extends JobKind>(tx: CoreTransaction, kind: K, rewrite: (payload: JobPayloads[K], jobId: number) => JobPayloads[K] | undefined): Promise<void> {
    const store = tx.store(JobsStore);
    await forEachRowInBatches(
      (after, limit) => store.payloadsAfter(kind, after, limit),
      async (row) => {
        const next = rewrite(JSON.parse(row.payload) as JobPayloads[K], row.id);
        if (next !== undefined) await store.setPayload(row.id, JSON.stringify(next));
      },
    );
  }

  async get(id: number): Promise<Job | undefined> {
    const row = await this.store.find(id);
    return row && toJob(row);
  }

  /** The job once it is done or failed, or as it is when `timeoutMs` passes first. */
  async wait(id: number, options: { timeoutMs: number }): Promise<Job> {
    const deadline = Date.now() + Math.max(0, options.timeoutMs);
    for (;;) {
      const job = await this.get(id);
      if (!job) throw new NotFoundError(`job does not exist [id: ${id}]`);
      const left = deadline - Date.now();
      if (job.status === 'done' || job.status === 'failed' || left <= 0) return job;
      // Woken by this process finishing it, or polling for another process's work.
      await new Promise<void>((resolve) => {
        let set = this.waiters.get(id);
        if (!set) this.waiters.set(id, (set = new Set()));
        const wake = () => {
          clearTimeout(timer);
          set!.delete(wake);
          if (set!.size === 0) this.waiters.delete(id);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 250));
        timer.unref();
        set.add(wake);
      });
    }
  }

  get isRunning(): boolean {
    return !this.stopped;
  }

  /** Starts the worker: what is due now (left by an earlier run too), then whatever is queued. */
  start(): void {
    if (!this.stopped || this.closed) return;
    this.stopped = false;
    this.wake();
  }

  /**
   * Stops claiming, aborts the handlers running here and waits briefly for them; jobs whose handlers did not
   * return in time are given back (queued, the attempt not counted), to be resumed by the next start.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.filling?.catch(() => undefined);
    for (const running of this.inFlight.values()) running.controller.abort(new JobAbortedError('closing', 'the server is shutting down'));
    const pending = [...this.inFlight.values()];
    if (pending.length === 0) return;
    let graceTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(pending.map((p) => p.done)),
      new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, CLOSE_GRACE_MS);
      }),
    ]);
    clearTimeout(graceTimer);
    for (const [id, running] of this.inFlight) {
      await this.store
        .finish(id, this.owner, { status: 'queued', error: running.row.error, runAfter: nowUnix(), attemptsBack: true, now: nowUnix() })
        .catch(() => false);
    }
    this.inFlight.clear();
  }

  /** Jobs were queued or a slot freed: claim what is due now. */
  wake(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.again = false;
    this.filling = this.fill();
    void this.filling
      .catch((error: unknown) => {
        if (!this.stopped) console.error('[repohost] job worker round failed:', error);
      })
      .finally(() => {
        this.filling = undefined;
        if (this.stopped) return;
        if (this.again) this.wake();
        else void this.schedule();
      });
  }

  /** Sets the timer for the next look: when the next job falls due, or the idle poll, whichever comes first. */
  private async schedule(): Promise<void> {
    let wait = IDLE_POLL_MS;
    try {
      const next = await this.store.nextDue();
      const now = Date.now();
      // A due job that could not be claimed waits on a key or a free slot: a finishing job wakes the worker.
      if (next !== undefined && next * 1000 > now) wait = Math.min(IDLE_POLL_MS, next * 1000 - now + 50);
    } catch {
      // The next round reports it.
    }
    if (this.stopped || this.filling || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wake();
    }, wait);
    this.timer.unref();
  }

  /**
   * Runs the jobs due now and waits for them, round after round until none is left (for embedders that never
   * serve, and tests). Returns how many attempts ran. Jobs another process holds are left to it.
   */
  async runDue(options: { maxRounds?: number } = {}): Promise<number> {
    let count = 0;
    for (let round = 0; round < (options.maxRounds ?? 100); round++) {
      const started = await this.fill();
      if (started.length === 0) {
        // Jobs still running here (started by the worker) may free keys that block due ones.
        if (this.inFlight.size === 0) break;
        await Promise.race([...this.inFlight.values()].map((r) => r.done));
        continue;
      }
      count += started.length;
      await Promise.all(started);
    }
    return count;
  }

  /** Claims due jobs up to the free slots and starts them; returns their completions. */
  private async fill(): Promise<Promise<void>[]> {
    const now = nowUnix();
    if (now - this.lastPruneUnix >= PRUNE_EVERY_SECONDS) {
      this.lastPruneUnix = now;
      await this.store.pruneFinished(now - KEEP_FINISHED_SECONDS);
    }
    const started: Promise<void>[] = [];
    let free = POOL_SIZE - this.inFlight.size;
    if (free <= 0 || this.handlers.size === 0) return started;
    const candidates = await this.store.claimable(now, [...this.handlers.keys()], free * 4, [...this.inFlight.keys()]);
    const seenKeys = new Set<string>();
    for (const candidate of candidates) {
      if (free <= 0 || this.closed) break;
      const keyId = `${candidate.kind}\u0000${candidate.key}`;
      // Two jobs of one key in one round: the second would only lose the claim.
      if (candidate.key !== '' && seenKeys.has(keyId)) continue;
      const row = await this.claim(candidate);
      if (!row) continue;
      if (row.key !== '') seenKeys.add(keyId);
      started.push(this.startAttempt(row));
      free--;
    }
    return started;
  }

  private async claim(candidate: JobRow): Promise<JobRow | undefined> {
    const now = nowUnix();
    const lease = { owner: this.owner, now, leaseUntil: now + this.leaseSeconds };
    try {
      if (candidate.key === '') return await this.store.claim(candidate.id, lease);
      return await this.ctx.transaction(async (tx) => {
        const store = tx.store(JobsStore);
        await store.lockKey(candidate.kind, candidate.key);
        return store.claim(candidate.id, lease);
      });
    } catch {
      // A write conflict with another process (SQLite busy): that process has it, or the next round will.
      return undefined;
    }
  }

  /** Runs one claimed attempt in the background; the promise settles when it is recorded. */
  private startAttempt(row: JobRow): Promise<void> {
    const controller = new AbortController();
    const entry: InFlight = { controller, row, done: Promise.resolve() };
    entry.done = this.runAttempt(row, controller).finally(() => {
      this.inFlight.delete(row.id);
      for (const wake of this.waiters.get(row.id) ?? []) wake();
      this.wake();
    });
    this.inFlight.set(row.id, entry);
    return entry.done;
  }

  private async runAttempt(row: JobRow, controller: AbortController): Promise<void> {
    const handler = this.handlers.get(row.kind);
    const signal = controller.signal;
    const timeoutSeconds = Math.max(1, handler?.timeoutSeconds ?? 60);
    const timeout = setTimeout(
      () => controller.abort(new JobAbortedError('timeout', `timed out after ${timeoutSeconds} s`)),
      timeoutSeconds * 1000,
    );
    timeout.unref();
    // The claim wrote the lease's end: its start is when the claim read the clock.
    const stopRenewing = renewLease(Number(row.lease_until_unix) - this.leaseSeconds, this.leaseSeconds, (leaseUntil, now) => {
      this.store
        .renew(row.id, this.owner, leaseUntil, now)
        .then((held) => {
          if (!held) controller.abort(new JobAbortedError('lease-lost', 'the job was taken over by another process'));
        })
        .catch(() => undefined);
    });
    let failure: unknown;
    let succeeded = false;
    try {
      if (!handler) throw new Error(`no handler for job kind "${row.kind}"`);
      let payload: unknown;
      try {
        payload = JSON.parse(row.payload);
      } catch {
        throw new Error('the job payload is not valid JSON');
      }
      const job = toJob(row);
      await handler.handle(this.ctx, {
        job,
        payload: payload as never,
        attempt: job.attempts,
        signal,
        progress: async (done, total, message = '') => {
          const clamp = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0);
          await this.store.progress(row.id, this.owner, clamp(done), clamp(total), message.slice(0, MAX_PROGRESS_MESSAGE_LENGTH), nowUnix());
        },
      });
      succeeded = true;
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timeout);
      stopRenewing();
    }
    const reason = signal.aborted && signal.reason instanceof JobAbortedError ? signal.reason.reason : undefined;
    // Taken over by another process: the outcome is theirs to record.
    if (reason === 'lease-lost') return;
    const now = nowUnix();
    try {
      if (reason === 'closing' && !succeeded) {
        // Interrupted by shutdown, not by its own fault: queued again for the next start, the attempt not counted.
        await this.store.finish(row.id, this.owner, { status: 'queued', error: row.error, runAfter: now, attemptsBack: true, now });
        return;
      }
      if (succeeded) {
        await this.store.finish(row.id, this.owner, { status: 'done', error: '', now });
        return;
      }
      const attempts = Number(row.attempts);
      const text = reason === 'timeout' ? (signal.reason as Error).message : errorText(failure);
      if (handler && attempts < Math.max(1, handler.maxAttempts)) {
        const backoff = Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** (attempts - 1));
        await this.store.finish(row.id, this.owner, { status: 'queued', error: text, runAfter: now + backoff, now });
      } else {
        await this.store.finish(row.id, this.owner, { status: 'failed', error: text, now });
      }
    } catch (error) {
      // The database went away (closing): the lease expires and the job is taken again.
      if (!this.closed) console.error(`[repohost] job ${row.id} outcome not recorded:`, error);
    }
  }
}
