import type { Actor } from '../access/actor.js';
import type { User } from '../users/tables.js';
import type { PublicKey } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A public key was added to an account. */
    'key.added': { key: PublicKey; user: User; actor: Actor };
    /** A public key was removed from an account. */
    'key.deleted': { key: PublicKey; user: User; actor: Actor };
  }
}
