import type { Actor } from './actor.js';
import { isSiteAdmin } from './actor.js';
import { Visibility, type User } from '../users/tables.js';
import type { Repository } from '../repos/tables.js';

/** Access levels, ordered, as Forgejo numbers them. */
export const AccessMode = { None: 0, Read: 1, Write: 2, Admin: 3, Owner: 4 } as const;
export type AccessModeValue = (typeof AccessMode)[keyof typeof AccessMode];

/**
 * May `actor` know that `user` exists? Public profiles: everyone. Limited: any signed-in user (not a public-only
 * token). Private: the user and site administrators.
 */
export function canSeeUser(actor: Actor, user: User): boolean {
  if (isSiteAdmin(actor)) return true;
  if (actor.kind === 'user' && actor.user.id === user.id) return true;
  if (user.visibility === Visibility.Public) return true;
  if (actor.kind !== 'user' || actor.publicOnly) return false;
  return user.visibility === Visibility.Limited;
}

/**
 * The one question every entry point asks (API, git over HTTP, later SSH): what may `actor` do to `repo`?
 * Collaborators and teams will add their grants here.
 */
export function repoAccessMode(actor: Actor, repo: Repository, owner: User): AccessModeValue {
  if (actor.kind === 'system') return AccessMode.Owner;
  if (actor.kind === 'user') {
    const isOwner = actor.user.id === owner.id;
    // A public-only token sees only public repositories of public owners, even the user's own.
    if (actor.publicOnly && (repo.is_private === 1 || owner.visibility !== Visibility.Public)) return AccessMode.None;
    if (isOwner) return AccessMode.Owner;
    if (actor.user.is_admin === 1) return AccessMode.Admin;
    // Restricted accounts see only what they were explicitly given.
    if (actor.user.is_restricted === 1) return AccessMode.None;
  }
  if (repo.is_private === 1) return AccessMode.None;
  return canSeeUser(actor, owner) ? AccessMode.Read : AccessMode.None;
}
