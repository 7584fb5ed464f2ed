import type { Actor } from '../users/index.js';
import type { User } from '../users/index.js';
import type { Repository } from '../repos/index.js';
import type { DeployKey, PublicKey } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A public key was added to an account. */
    'key.added': { key: PublicKey; user: User; actor: Actor };
    /** A public key was removed from an account. */
    'key.deleted': { key: PublicKey; user: User; actor: Actor };
    /** A deploy key was added to a repository. */
    'deploy_key.added': { deployKey: DeployKey; repo: Repository; owner: User; actor: Actor };
    /** A deploy key was removed from a repository. */
    'deploy_key.deleted': { deployKey: DeployKey; repo: Repository; owner: User; actor: Actor };
  }
}
