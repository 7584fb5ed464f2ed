import { UnauthorizedError } from '../errors.js';
import type { User } from './tables.js';

/**
 * Who is asking. Every core operation takes one. `system` is the server itself (CLI, migrations, jobs): it may
 * do anything. A `user` actor may be limited to public resources (a token with the `public-only` scope), or to
 * some repositories (`repoIds`, a repository-limited token: those as the user may, other public repositories of
 * public owners read-only, nothing else).
 */
export type Actor =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'system' }
  | { readonly kind: 'user'; readonly user: User; readonly publicOnly: boolean; readonly repoIds?: readonly number[] };

export const ANONYMOUS: Actor = Object.freeze({ kind: 'anonymous' });
export const SYSTEM: Actor = Object.freeze({ kind: 'system' });

export function userActor(user: User, options: { publicOnly?: boolean; repoIds?: readonly number[] } = {}): Actor {
  const actor = { kind: 'user' as const, user, publicOnly: options.publicOnly ?? false };
  return options.repoIds ? { ...actor, repoIds: options.repoIds } : actor;
}

export function actorUser(actor: Actor): User | null {
  return actor.kind === 'user' ? actor.user : null;
}

/** Site administrators and the system may manage every account and repository. */
/** The signed-in account acting, or 401 "token is required" (Forgejo's reqToken) for anyone else. */
export function signedInUser(actor: Actor): User {
  const user = actorUser(actor);
  if (!user) throw new UnauthorizedError('token is required');
  return user;
}

export function isSiteAdmin(actor: Actor): boolean {
  return actor.kind === 'system' || (actor.kind === 'user' && actor.user.is_admin === 1);
}

export function isSelf(actor: Actor, user: Pick<User, 'id'>): boolean {
  return actor.kind === 'user' && actor.user.id === user.id;
}
