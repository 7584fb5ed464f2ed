import type { Actor } from '../users/index.js';
import type { User } from '../users/index.js';
import type { GpgKey } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** GPG keys were added to an account (the primary keys; their subkeys came with them). */
    'gpg_key.added': { keys: GpgKey[]; user: User; actor: Actor };
    /** A GPG key (with its subkeys) was removed from an account. */
    'gpg_key.deleted': { key: GpgKey; user: User; actor: Actor };
  }
}
