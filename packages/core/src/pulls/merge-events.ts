import type { PullEventBase } from './events.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A merge was scheduled to run once the head's checks succeed (`merge_when_checks_succeed`). */
    'pull.merge_scheduled': PullEventBase;
  }
}

export {};
