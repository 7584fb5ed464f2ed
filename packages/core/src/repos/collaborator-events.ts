import type { Actor } from '../users/index.js';
import type { AccessModeValue } from '../access/index.js';
import type { Repository } from './tables.js';
import type { User } from '../users/index.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /**
     * `collaborator` was given access to `repo` (`created`), or the mode of its collaboration changed (`created`
     * false, `previousMode` the mode before).
     */
    'repo.collaborator_added': {
      repo: Repository;
      owner: User;
      collaborator: User;
      mode: AccessModeValue;
      created: boolean;
      previousMode?: AccessModeValue;
      actor: Actor;
    };
    /** The collaboration of `collaborator` on `repo` was removed. */
    'repo.collaborator_removed': { repo: Repository; owner: User; collaborator: User; actor: Actor };
  }
}
