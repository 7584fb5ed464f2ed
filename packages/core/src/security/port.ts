import type { StoreScope } from '../storage/index.js';
import { SecurityStore } from './store.js';

/** What other domains (housekeeping) may write of sign-in security rows. The security store stays private to this folder. */
export class SecurityPort {
  constructor(private readonly scope: StoreScope) {}

  /** Deletes sign-in failure counters whose window began at or before `before`; how many went. */
  deleteFailuresStartedBefore(before: number): Promise<number> {
    return this.scope.store(SecurityStore).deleteStarted(before);
  }

  /** Forgets networks whose last sign-in was at or before `before`; how many went. */
  forgetKnownBefore(before: number): Promise<number> {
    return this.scope.store(SecurityStore).forgetKnown(before);
  }
}
