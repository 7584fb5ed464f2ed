import type { Actor } from '../access/actor.js';
import type { RefUpdate } from '../git/backend.js';
import type { User } from '../users/tables.js';
import type { Repository } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A repository was created (its git storage exists and is initialized as asked). */
    'repo.created': { repo: Repository; owner: User; actor: Actor };
    /** A repository and its git storage were deleted. */
    'repo.deleted': { repo: Repository; owner: User; actor: Actor };
    /**
     * A push changed refs. `repo` is the row after the push was recorded; `updates` are the ref changes that took
     * effect (all-zero old id: created; all-zero new id: deleted).
     */
    'repo.pushed': { repo: Repository; owner: User; actor: Actor; updates: RefUpdate[] };
  }
}
