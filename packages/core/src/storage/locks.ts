/**
 * Named locks kept in the database, so that every process on one database serializes on them, not only the callers
 * in one process. A lock is a `named_lock` row: taken with one conditional write (an insert that, on conflict, takes
 * the row over only when its lease expired), renewed every third of its lease while held, deleted when released. A
 * process that dies holding one lets its lease expire and the next process that asks takes it over; on this machine
 * a holder whose process is gone is taken over at once.
 *
 * Waiters in the same host queue in memory behind each other (no polling among them); only the head of that queue
 * asks the database, with short polls that back off, for a bounded time. Correctness comes from the rows alone.
 *
 * The lease owner names a process as `host:pid:random` (`newLeaseOwner`, which jobs, cron and webhook deliveries
 * use too); the host part carries, on Linux, a tag of the kernel's boot and this pid namespace, so that "the pid is
 * gone" is asked only of processes that ran where this one runs.
 */
import { hostname } from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import type { CoreContext, CoreTransaction } from '../context.js';
import { ConflictError, UnavailableError } from '../errors.js';
import { isContention } from './contention.js';
import { nowUnix, type Storage } from './database.js';
import { Store } from './store.js';

export interface NamedLockTable {
  name: string;
  owner: string;
  /** One acquisition: renewals and the release name it, so a later holder (even in the same process) is never touched. */
  token: string;
  lease_until_unix: number;
  acquired_unix: number;
}

export interface LocksTables {
  named_lock: NamedLockTable;
}

declare module './schema.js' {
  interface Schema extends LocksTables {}
}

/** How long `acquire` waits for a lock by default before answering 503. */
const DEFAULT_WAIT_MS = 10 * 60_000;
/** Polls of the database for a lock another process holds: from this, doubling, up to the cap. */
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 1000;
const MAX_NAME_LENGTH = 255;

let machine: string | undefined;

/** This machine and pid namespace as lease owners name it (computed once, on first use). */
function machineTag(): string {
  if (machine !== undefined) return machine;
  const name = hostname().slice(0, 32);
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pids = readlinkSync('/proc/self/ns/pid');
    machine = `${name}~${createHash('sha256').update(`${boot}\n${pids}`).digest('hex').slice(0, 10)}`;
  } catch {
    // Not Linux: a gone process is known by its lease running out only.
    machine = name;
  }
  return machine;
}

/** A new lease owner for one host: `host:pid:random` (at most 64 characters). */
export function newLeaseOwner(): string {
  return `${machineTag()}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

/**
 * Renews a claimed row's lease every third of `seconds` until stopped; `renew` writes the new end (whole seconds).
 * The first renewal is timed from the claim's own clock reading (`claimedUnix`), not from when the work starts: a
 * claim that waited for a busy database began its lease then, and a renewal timed from later could come after
 * another process had taken the row over.
 */
export function renewLease(claimedUnix: number, seconds: number, renew: (leaseUntil: number, now: number) => void): () => void {
  const period = (seconds * 1000) / 3;
  let renewedFromMs = claimedUnix * 1000;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => {
      if (stopped) return;
      renewedFromMs = Date.now();
      const now = Math.floor(renewedFromMs / 1000);
      renew(now + seconds, now);
      schedule();
    }, Math.max(0, renewedFromMs + period - Date.now()));
    timer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Whether the process a lease owner names is certainly gone: it ran on this machine, in this pid namespace, under
 * another pid, and no process has that pid now. Anything else (another machine, a live pid, a reused pid, an owner
 * without a tag) is not known to be gone, and waits for its lease to expire.
 */
export function leaseOwnerGone(owner: string): boolean {
  const last = owner.lastIndexOf(':');
  const middle = last > 0 ? owner.lastIndexOf(':', last - 1) : -1;
  if (middle <= 0) return false;
  const here = machineTag();
  if (!here.includes('~') || owner.slice(0, middle) !== here) return false;
  const pid = Number(owner.slice(middle + 1, last));
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const owners = new WeakMap<Storage, string>();

/** The lease owner of everything a host holds on this open database (its locks, its git intents). */
export function leaseOwnerOf(storage: Storage): string {
  let owner = owners.get(storage);
  if (owner === undefined) owners.set(storage, (owner = newLeaseOwner()));
  return owner;
}

class LockStore extends Store<LocksTables> {
  get owner(): string {
    return leaseOwnerOf(this.scope.storage);
  }

  /** Takes the lock when no row holds it or the row's lease expired, in one statement; true when taken. */
  async take(name: string, token: string, now: number, leaseUntil: number): Promise<boolean> {
    const owner = this.owner;
    const row = await this.db
      .insertInto('named_lock')
      .values({ name, owner, token, lease_until_unix: leaseUntil, acquired_unix: now })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({ owner, token, lease_until_unix: leaseUntil, acquired_unix: now }).where('named_lock.lease_until_unix', '<', now),
      )
      .returning('token')
      .executeTakeFirst();
    return row?.token === token;
  }

  /** Takes the lock from the acquisition `from` (whose process is gone); true when taken. */
  async takeOver(name: string, from: string, token: string, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('named_lock')
      .set({ owner: this.owner, token, lease_until_unix: leaseUntil, acquired_unix: now })
      .where('name', '=', name)
      .where('token', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  holder(name: string): Promise<NamedLockTable | undefined> {
    return this.db.selectFrom('named_lock').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Extends the lease of an acquisition; false when it no longer holds the lock. */
  async renew(name: string, token: string, leaseUntil: number): Promise<boolean> {
    const result = await this.db.updateTable('named_lock').set({ lease_until_unix: leaseUntil }).where('name', '=', name).where('token', '=', token).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(name: string, token: string): Promise<void> {
    await this.db.deleteFrom('named_lock').where('name', '=', name).where('token', '=', token).execute();
  }

  async releaseAllOf(owner: string): Promise<void> {
    await this.db.deleteFrom('named_lock').where('owner', '=', owner).execute();
  }
}

/** Waiting for a lock took longer than the caller allowed: 503 with Retry-After. */
export class LockTimeoutError extends UnavailableError {
  constructor(message: string) {
    super(message, 5);
  }
}

/** A held lock's lease ran out and another process took it (or the host was reset): the guarded change must not commit. */
export class LockLostError extends ConflictError {
  constructor(name: string) {
    super(`the lock ${name} was lost meanwhile; try again`);
  }
}

export interface LockOptions {
  /** How long to wait for the lock before giving up with LockTimeoutError (default 10 minutes; 0: one try). */
  waitMs?: number;
  /** The message of that LockTimeoutError (default: names the lock). */
  busyMessage?: string;
  /** Stops waiting (the signal's reason is thrown). */
  signal?: AbortSignal;
}

/** A lock this host holds until `release()`. */
export interface HeldLock {
  readonly name: string;
  /** Aborted when the lease was lost (another process took the lock after it expired, or the host was reset). */
  readonly signal: AbortSignal;
  /**
   * In the transaction that completes the guarded change: fails with LockLostError unless the lock is still held,
   * and extends its lease. The write keeps the row locked until the transaction ends (on PostgreSQL its row; on
   * SQLite the database), so nobody takes the lock over before the change commits.
   */
  confirm(tx: CoreTransaction): Promise<void>;
  /** Releases the lock (the row goes; a failure leaves it to expire). Idempotent. */
  release(): Promise<void>;
}

interface Holding {
  lost(): void;
}

/**
 * The named locks of one host (`ctx.service(DatabaseLocks)`). Keys name what they serialize:
 * `repo-storage:<repo id>`, `fork-owner:<account id>`, `pull:<pull request id>`.
 */
export class DatabaseLocks {
  /** The tail of each lock name's queue of waiters in this host. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly held = new Set<Holding>();

  constructor(private readonly ctx: CoreContext) {}

  private get leaseSeconds(): number {
    return this.ctx.settings.repohost.LEASE_SECONDS;
  }

  private get store(): LockStore {
    return this.ctx.store(LockStore);
  }

  /** The lease owner this host's locks are held under. */
  get owner(): string {
    return this.store.owner;
  }

  /** Runs `work` holding the lock `name`, released when it settles. */
  async withLock<T>(name: string, work: (lock: HeldLock) => Promise<T>, options: LockOptions = {}): Promise<T> {
    const lock = await this.acquire(name, options);
    try {
      return await work(lock);
    } finally {
      await lock.release();
    }
  }

  /**
   * Waits for the lock `name` (behind earlier waiters of this host, then for other processes to release it or let
   * its lease expire) and takes it. Fails with LockTimeoutError when `waitMs` passes first.
   */
  async acquire(name: string, options: LockOptions = {}): Promise<HeldLock> {
    if (name === '' || name.length > MAX_NAME_LENGTH || name.includes('\u0000')) throw new Error(`invalid lock name: ${JSON.stringify(name)}`);
    const deadline = Date.now() + Math.max(0, options.waitMs ?? DEFAULT_WAIT_MS);
    const busy = () => new LockTimeoutError(options.busyMessage ?? `the lock ${name} is busy; try again later`);
    const before = this.queues.get(name) ?? Promise.resolve();
    let leave!: () => void;
    const turn = new Promise<void>((resolve) => (leave = resolve));
    const tail = before.then(() => turn);
    this.queues.set(name, tail);
    let left = false;
    const leaveQueue = () => {
      if (left) return;
      left = true;
      leave();
      if (this.queues.get(name) === tail) this.queues.delete(name);
    };
    try {
      if (!(await settlesBefore(before, deadline, options.signal))) throw busy();
      const token = randomBytes(12).toString('hex');
      if (!(await this.take(name, token, deadline, options.signal))) throw busy();
      return this.hold(name, token, leaveQueue);
    } catch (error) {
      leaveQueue();
      throw error;
    }
  }

  /** Who holds the lock `name` and until when (unix seconds), if anyone does. */
  async holderOf(name: string): Promise<{ owner: string; leaseUntilUnix: number } | undefined> {
    const row = await this.store.holder(name);
    return row && { owner: row.owner, leaseUntilUnix: Number(row.lease_until_unix) };
  }

  /**
   * Forgets every lock this host holds and deletes their rows: for a host that starts over as if restarted (the
   * start-up reconcile), when none of its guarded changes is running any more.
   */
  async reset(): Promise<void> {
    for (const holding of this.held) holding.lost();
    this.held.clear();
    this.queues.clear();
    await this.store.releaseAllOf(this.owner);
  }

  /** Tries, and polls with backoff until the deadline, to take the row; false when the deadline passed. */
  private async take(name: string, token: string, deadline: number, signal: AbortSignal | undefined): Promise<boolean> {
    let delay = FIRST_POLL_MS;
    for (;;) {
      signal?.throwIfAborted();
      const now = nowUnix();
      const leaseUntil = now + this.leaseSeconds;
      try {
        if (await this.store.take(name, token, now, leaseUntil)) return true;
        const holder = await this.store.holder(name);
        if (holder && leaseOwnerGone(holder.owner) && (await this.store.takeOver(name, holder.token, token, now, leaseUntil))) return true;
      } catch (error) {
        if (!isContention(error)) throw error;
      }
      const left = deadline - Date.now();
      if (left <= 0) return false;
      // Jitter keeps waiters of several processes from polling in step.
      await sleep(Math.min(left, delay * (0.5 + Math.random() / 2)), signal);
      delay = Math.min(delay * 2, MAX_POLL_MS);
    }
  }

  private hold(name: string, token: string, leaveQueue: () => void): HeldLock {
    const controller = new AbortController();
    let leaseUntil = nowUnix() + this.leaseSeconds;
    let released = false;
    const holding: Holding = {
      lost: () => {
        clearInterval(renewal);
        if (!controller.signal.aborted) controller.abort(new LockLostError(name));
      },
    };
    const renewal = setInterval(() => {
      const now = nowUnix();
      this.store.renew(name, token, now + this.leaseSeconds).then(
        (held) => {
          if (held) leaseUntil = now + this.leaseSeconds;
          else holding.lost();
        },
        // The database did not answer: held until the lease this process last wrote runs out.
        () => {
          if (nowUnix() > leaseUntil) holding.lost();
        },
      );
    }, (this.leaseSeconds * 1000) / 3);
    renewal.unref();
    this.held.add(holding);
    return {
      name,
      signal: controller.signal,
      confirm: async (tx) => {
        if (!(await tx.store(LockStore).renew(name, token, nowUnix() + this.leaseSeconds))) throw new LockLostError(name);
      },
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        this.held.delete(holding);
        try {
          await this.store.release(name, token);
        } catch (error) {
          console.error(`[repohost] releasing the lock ${name} failed; it is free once its lease runs out:`, error);
        } finally {
          leaveQueue();
        }
      },
    };
  }
}

/** Whether `promise` settles before `deadline` (ms); throws the signal's reason when it aborts first. */
function settlesBefore(promise: Promise<void>, deadline: number, signal: AbortSignal | undefined): Promise<boolean> {
  signal?.throwIfAborted();
  return new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => resolve(false)), Math.max(0, deadline - Date.now()));
    const onAbort = () => finish(() => reject(signal!.reason));
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(() => finish(() => resolve(true)));
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
