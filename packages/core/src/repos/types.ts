/**
 * Types of the repos domain that other domains name (a feed's or a starred list's visibility rule): kept out of
 * the stores, which are private to this folder.
 */

/** What an account was given, read ahead for the in-memory catalog (SQL asks the access domain's subqueries). */
export interface AccountGrants {
  readonly repoIds: ReadonlySet<number>;
  readonly orgIds: ReadonlySet<number>;
}

/**
 * Which repositories a search may return, by who asks (see `searchVisibility` in search.ts, which derives it
 * from the same rule as `repoPermission`). `signed-in` and `own` also let through the repositories granted to the
 * account (collaborations, teams) and the public repositories of its organizations.
 */
export type SearchVisibility = (
  /** Site administrators and the system: every repository. */
  | { readonly kind: 'all' }
  /** Public repositories of public owners; `onlyOwner` narrows them to one owner's (restricted accounts). */
  | { readonly kind: 'public'; readonly onlyOwner?: number }
  /** A signed-in account: its own, and public repositories of public and limited owners. */
  | { readonly kind: 'signed-in'; readonly userId: number; readonly grants?: AccountGrants }
  /** A restricted account: its own repositories and those it was given, nothing public. */
  | { readonly kind: 'own'; readonly userId: number; readonly grants?: AccountGrants }
) & {
  /** A repository-limited token: of the rest, only these repositories and public ones of public owners. */
  readonly tokenRepos?: readonly number[];
};
