/**
 * One change at a time per pull request, in this process (Forgejo's pullWorkingPool): merges, manual merges and
 * updates from the base each read the branches, then move one, so two of them on one pull request must not interleave.
 */
export class PullWorkQueue {
  /** The tail of each pull request's queue of merges and updates, in this process. */
  private readonly working = new Map<number, Promise<unknown>>();

  /** Runs `work` after every earlier merge or update of the same pull request in this process. */
  async oneAtATime<T>(pullId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.working.get(pullId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.working.set(pullId, tail);
    try {
      return await run;
    } finally {
      if (this.working.get(pullId) === tail) this.working.delete(pullId);
    }
  }
}
