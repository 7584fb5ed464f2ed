/** A run that has just finished, and the state it left (Forgejo's `ActionRunNowDone` notification). */
export interface RunDoneEvent {
  runId: number;
  /** The run's `ActionStatus` before this change (waiting, running, blocked…): never a done one. */
  priorStatus: number;
}

declare module '../events/bus.js' {
  interface DomainEventMap {
    /**
     * A run's state became done (success, failure, cancelled or skipped) from one that was not, in the transaction
     * of that change; a rerun that finishes again announces it again.
     */
    'actions.run_done': RunDoneEvent;
  }
}

export {};
