import type { StoreScope } from '../storage/index.js';
import { KeysStore } from './store.js';
import { KeyType, type PublicKey } from './tables.js';

/** What other domains may read and write of SSH keys. The keys store stays private to this folder. */
export class KeysPort {
  constructor(private readonly scope: StoreScope) {}

  private get keys(): KeysStore {
    return this.scope.store(KeysStore);
  }

  /** An account's keys that may sign git objects (its user keys), oldest first: one query per signer checked. */
  signingKeysOf(ownerId: number): Promise<PublicKey[]> {
    return this.keys.signingKeysOf(ownerId);
  }

  /** Deletes an account's own (user) keys: the account is being deleted; deploy keys belong to repositories. */
  deleteAllOf(userId: number): Promise<void> {
    return this.keys.deleteAllOf(userId, KeyType.User);
  }
}
