import type { Actor } from '../users/index.js';
import type { Repository } from '../repos/index.js';
import type { User } from '../users/index.js';
import type { Release } from './tables.js';

/** What every release event carries: who acted, where, and the release (as it is after the change). */
export interface ReleaseEventBase {
  actor: Actor;
  repo: Repository;
  owner: User;
  release: Release;
}

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A release became visible to readers: created as a non-draft, or a draft published (Forgejo's NewRelease). */
    'release.published': ReleaseEventBase;
    /** A published release changed (Forgejo's UpdateRelease); drafts changing announce nothing. */
    'release.updated': ReleaseEventBase;
    /** A published release was deleted; `release` is the row it had. Drafts deleted announce nothing. */
    'release.deleted': ReleaseEventBase;
  }
}

export {};
