import { UnavailableError } from '../errors.js';
import { gitCounters } from './stats.js';

/** Gives a slot back. Calling it again does nothing, so every exit path may call it. */
export type ReleaseSlot = () => void;

interface Waiter {
  grant(release: ReleaseSlot): void;
}

/**
 * At most `max` holders at a time; the others wait in arrival order, each for up to `queueTimeoutMs`, and are then
 * refused with UnavailableError. It bounds the git processes one server runs, so a flood of requests queues and
 * is turned away instead of forking without end.
 */
export class ConcurrencyLimit {
  private active = 0;
  /** A Set keeps insertion order (first in, first out) and drops a waiter that gives up in O(1). */
  private readonly waiting = new Set<Waiter>();

  constructor(
    readonly max: number,
    readonly queueTimeoutMs: number,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a concurrency limit needs at least one slot, not ${max}`);
  }

  /** Waits for a slot. Rejects with UnavailableError after the queue timeout, or with the signal's reason. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Nobody may overtake those already waiting.
    if (this.active < this.max && this.waiting.size === 0) {
      this.active += 1;
      gitCounters.active += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const leave = () => {
        if (this.waiting.delete(waiter)) gitCounters.waiting -= 1;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        grant: (release) => {
          leave();
          resolve(release);
        },
      };
      const onAbort = () => {
        leave();
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        leave();
        const retryAfter = Math.max(1, Math.ceil(this.queueTimeoutMs / 1000));
        reject(new UnavailableError('too many git operations are running; try again later', retryAfter));
      }, this.queueTimeoutMs);
      // A waiting request must not keep the process alive on shutdown.
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(waiter);
      gitCounters.waiting += 1;
    });
  }

  private releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.values().next();
      // The slot passes straight to the oldest waiter, so the count never dips and lets a newcomer in first.
      if (!next.done) next.value.grant(this.releaser());
      else {
        this.active -= 1;
        gitCounters.active -= 1;
      }
    };
  }
}
