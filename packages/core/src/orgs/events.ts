import type { Actor } from '../users/index.js';
import type { Row } from '../storage/index.js';
import type { User } from '../users/index.js';
import type { Team } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** An organization was created; `creator` is its first owner. */
    'org.created': { org: User; creator: User; actor: Actor };
    'org.updated': { org: User; actor: Actor };
    /** The organization's row is deleted in this transaction (its teams and memberships go with it). */
    'org.deleted': { org: User; actor: Actor };
    /** `user` left `org` (removed from every team). */
    'org.member_removed': { org: User; user: User; actor: Actor };
    'team.created': { org: User; team: Team; actor: Actor };
    'team.updated': { org: User; team: Team; actor: Actor };
    'team.deleted': { org: User; team: Team; actor: Actor };
    'team.member_added': { org: User; team: Team; user: User; actor: Actor };
    'team.member_removed': { org: User; team: Team; user: User; actor: Actor };
    'team.repo_added': { org: User; team: Team; repo: Row<'repository'>; actor: Actor };
    'team.repo_removed': { org: User; team: Team; repo: Row<'repository'>; actor: Actor };
  }
}
