import type { Actor } from './actor.js';
import type { User } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** An account was created. */
    'user.created': { user: User; actor: Actor };
    /** An account was deleted, with everything it owned. */
    'user.deleted': { user: User; actor: Actor };
  }
}
