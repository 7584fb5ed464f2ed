import type { CoreContext } from '../context.js';
import { DatabaseLocks } from '../storage/index.js';

/**
 * One change at a time per pull request, across every process on the database (Forgejo's pullWorkingPool): merges,
 * manual merges and updates from the base each read the branches, then move one, so two of them on one pull request
 * must not interleave. A lock row `pull:<id>` (`DatabaseLocks`); waiters in this process queue behind each other.
 */
export class PullWorkQueue {
  constructor(private readonly ctx: CoreContext) {}

  /** Runs `work` once every earlier merge or update of the same pull request (in any process) finished. */
  oneAtATime<T>(pullId: number, work: () => Promise<T>): Promise<T> {
    return this.ctx.service(DatabaseLocks).withLock(`pull:${pullId}`, () => work(), {
      busyMessage: 'another merge or update of this pull request is in progress; try again later',
    });
  }
}
