import type { StoreScope } from '../storage/index.js';
import { OAuth2ProviderStore } from './provider-store.js';

/** What other domains (housekeeping) may write of the OAuth2 provider's rows. Its stores stay private to this folder. */
export class OAuth2Port {
  constructor(private readonly scope: StoreScope) {}

  /** Deletes authorization codes, tokens and sign-in sessions past their lifetime, in that order; how many of each. */
  async deleteExpired(now: number): Promise<{ codes: number; tokens: number; sessions: number }> {
    const store = this.scope.store(OAuth2ProviderStore);
    const codes = await store.deleteExpiredCodes(now);
    const tokens = await store.deleteExpiredTokens(now);
    const sessions = await store.deleteExpiredSessions(now);
    return { codes, tokens, sessions };
  }
}
