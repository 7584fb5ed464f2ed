import type { Actor } from './actor.js';
import { isSiteAdmin } from './actor.js';
import { Visibility, type User } from '../users/tables.js';
import type { Repository } from '../repos/tables.js';

/** Access levels, ordered, as Forgejo numbers them. */
export const AccessMode = { None: 0, Read: 1, Write: 2, Admin: 3, Owner: 4 } as const;
export type AccessModeValue = (typeof AccessMode)[keyof typeof AccessMode];

/**
 * May `actor` know that `user` exists? Public profiles: everyone. Limited: any signed-in, unrestricted user (not a
 * public-only token). Private: the user and site administrators.
 */
export function canSeeUser(actor: Actor, user: User): boolean {
  if (isSiteAdmin(actor)) return true;
  if (actor.kind === 'user' && actor.user.id === user.id) return true;
  if (user.visibility === Visibility.Public) return true;
  if (actor.kind !== 'user' || actor.publicOnly) return false;
  // Restricted accounts see only public profiles (and their own), as in Forgejo's IsUserVisibleToViewer.
  return user.visibility === Visibility.Limited && actor.user.is_restricted !== 1;
}

/** Which of an owner's repositories an actor may see: none, the public ones, or all of them. */
export type OwnedRepoVisibility = 'none' | 'public' | 'all';

/**
 * What `actor` may do to each of `owner`'s repositories, and to which of them, by who the actor is. Both answers
 * below come from here, so a list (`ownedRepoVisibility`) cannot disagree with a single read (`repoAccessMode`).
 */
function ownerAccess(actor: Actor, owner: User): { mode: AccessModeValue; repos: OwnedRepoVisibility } {
  const none = { mode: AccessMode.None, repos: 'none' } as const;
  if (actor.kind === 'system') return { mode: AccessMode.Owner, repos: 'all' };
  if (actor.kind === 'user') {
    const { user } = actor;
    // A public-only token sees only public repositories of public owners, even the user's own.
    if (actor.publicOnly && owner.visibility !== Visibility.Public) return none;
    const mode = user.id === owner.id ? AccessMode.Owner : user.is_admin === 1 ? AccessMode.Admin : undefined;
    if (mode !== undefined) return { mode, repos: actor.publicOnly ? 'public' : 'all' };
    // Restricted accounts see only what they were explicitly given.
    if (user.is_restricted === 1) return none;
  }
  return canSeeUser(actor, owner) ? { mode: AccessMode.Read, repos: 'public' } : none;
}

/**
 * The one question every entry point asks (API, git over HTTP, later SSH): what may `actor` do to `repo`?
 * Collaborators and teams will add their grants here (and to `ownedRepoVisibility`'s query).
 */
export function repoAccessMode(actor: Actor, repo: Repository, owner: User): AccessModeValue {
  const { mode, repos } = ownerAccess(actor, owner);
  if (repos === 'none' || (repos === 'public' && repo.is_private === 1)) return AccessMode.None;
  return mode;
}

/** Which of `owner`'s repositories `actor` may list: exactly those `repoAccessMode` does not answer None for. */
export function ownedRepoVisibility(actor: Actor, owner: User): OwnedRepoVisibility {
  return ownerAccess(actor, owner).repos;
}
