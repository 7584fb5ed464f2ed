import type { Actor } from '../users/index.js';
import type { RefUpdate } from '../git/index.js';
import type { Repository } from '../repos/index.js';
import type { User } from '../users/index.js';
import type { Mirror } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /**
     * A pull mirror fetched from its remote: `updates` are the refs that moved (also announced as `repo.pushed`
     * when any did, so pull requests, feeds and webhooks follow them as they follow pushes).
     */
    'mirror.synced': { repo: Repository; owner: User; mirror: Mirror; actor: Actor; updates: RefUpdate[] };
  }
}
