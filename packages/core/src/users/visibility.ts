import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { isSiteAdmin, type Actor } from './actor.js';
import { Visibility, type User } from './tables.js';

/**
 * May `actor` know that `user` exists? Public profiles: everyone. Limited: any signed-in, unrestricted user (not a
 * public-only token). Private: the user and site administrators. An organization's members (`member`) always see it.
 */
export function canSeeAccount(actor: Actor, user: User, member = false): boolean {
  if (isSiteAdmin(actor)) return true;
  if (actor.kind === 'user' && actor.user.id === user.id) return true;
  if (user.visibility === Visibility.Public) return true;
  if (actor.kind !== 'user' || actor.publicOnly) return false;
  if (member) return true;
  // Restricted accounts see only public profiles (and their own), as in Forgejo's IsUserVisibleToViewer.
  return user.visibility === Visibility.Limited && actor.user.is_restricted !== 1;
}

/**
 * Which accounts an actor may find in a list, as a condition any store can put in SQL (Forgejo's
 * `BuildCanSeeUserCondition`): site administrators see all; signed-in users the public and limited ones and
 * themselves; restricted users only themselves; public-only tokens and anonymous callers only public ones.
 */
export type UserVisibilityFilter =
  | { readonly all: true }
  | { readonly all: false; readonly visibilities: readonly number[]; readonly selfId: number | null };

export function userVisibilityFilter(actor: Actor): UserVisibilityFilter {
  if (isSiteAdmin(actor)) return { all: true };
  if (actor.kind !== 'user') return { all: false, visibilities: [Visibility.Public], selfId: null };
  const { user } = actor;
  if (actor.publicOnly) return { all: false, visibilities: [Visibility.Public], selfId: user.id };
  if (user.is_restricted === 1) return { all: false, visibilities: [], selfId: user.id };
  return { all: false, visibilities: [Visibility.Public, Visibility.Limited], selfId: user.id };
}

/**
 * The filter as SQL over the user table (or the alias `table` a query gives it): `WHERE … AND ${userVisibleSql(f)}`
 * in a store that joins users.
 */
export function userVisibleSql(filter: UserVisibilityFilter, table = 'user'): RawBuilder<SqlBool> {
  if (filter.all) return sql<SqlBool>`1 = 1`;
  const ref = (column: string) => sql.ref(`${table}.${column}`);
  const parts: RawBuilder<SqlBool>[] = [];
  if (filter.visibilities.length > 0) parts.push(sql<SqlBool>`${ref('visibility')} IN (${sql.join(filter.visibilities)})`);
  if (filter.selfId !== null) parts.push(sql<SqlBool>`${ref('id')} = ${filter.selfId}`);
  if (parts.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
}
