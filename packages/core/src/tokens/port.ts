import type { StoreScope } from '../storage/index.js';
import { TokensStore } from './store.js';

/** What other domains may write of access tokens. The tokens store stays private to this folder. */
export class TokensPort {
  constructor(private readonly scope: StoreScope) {}

  /** Deletes every token of an account (the account is being deleted). */
  deleteAllOf(userId: number): Promise<void> {
    return this.scope.store(TokensStore).deleteAllOf(userId);
  }
}
