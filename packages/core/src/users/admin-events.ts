import type { Actor } from './actor.js';
import type { User } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A site administrator (or the CLI) changed an account's settings, sign-in or privileges. */
    'user.edited': { user: User; previous: User; actor: Actor };
    /** An account got a new name; its repositories (and their storage) moved with it. */
    'user.renamed': { user: User; oldName: string; actor: Actor };
  }
}
