/**
 * The filter the starred and watched lists share (stars are the social domain's, watches this one's): repository
 * visibility in SQL, over `repository` and its owner joined as `owner`.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { visible } from './search-store.js';
import type { SearchVisibility } from './types.js';

/** Which repositories a starred or watched list shows: the caller's visibility, and public ones only when asked. */
export interface RepoListFilter {
  visibility: SearchVisibility;
  /** Only public repositories (another account's list: what it starred privately stays private). */
  publicOnly: boolean;
}

/** The WHERE shared by the starred and watched lists, over `repository` and its owner joined as `owner`. */
export function repoListCondition(eb: unknown, filter: RepoListFilter): Expression<SqlBool> {
  const shown = visible(eb as Parameters<typeof visible>[0], filter.visibility);
  return filter.publicOnly ? sql<SqlBool>`(${shown} AND repository.is_private = 0)` : shown;
}
