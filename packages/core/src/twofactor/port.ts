import type { StoreScope } from '../storage/index.js';
import { TwoFactorStore } from './store.js';

/** What other domains may write of two-factor enrolments. The twofactor store stays private to this folder. */
export class TwoFactorPort {
  constructor(private readonly scope: StoreScope) {}

  /** Deletes an account's enrolment (the account is being deleted); true when it had one. */
  deleteOf(userId: number): Promise<boolean> {
    return this.scope.store(TwoFactorStore).deleteOf(userId);
  }
}
