import type { Expression, Insertable, SqlBool, Updateable } from 'kysely';
import type { StoreScope } from '../storage/store.js';
import { ReposStore } from './store.js';
import { RepoSearchStore, visible } from './search-store.js';
import { RepoReleaseCountStore } from './release-count-store.js';
import type { Repository, RepositoryTable } from './tables.js';
import type { SearchVisibility } from './types.js';

/**
 * What other domains may read and write of repositories: their rows, who watches them, the visibility rule
 * other domains' lists filter by, and the few columns other domains keep (size, topics, the release count).
 * The repos stores stay private to this folder.
 */
export class ReposPort {
  constructor(private readonly scope: StoreScope) {}

  private get repos(): ReposStore {
    return this.scope.store(ReposStore);
  }

  // ---- SQL for other domains' queries (no query of its own: composed into the caller's) ----

  /**
   * The repositories `visibility` lets through, as repository search decides, for a query that joins
   * `repository` and its owner's row as `owner` (feeds, starred and watched lists).
   */
  static visible(eb: Parameters<typeof visible>[0], visibility: SearchVisibility): Expression<SqlBool> {
    return visible(eb, visibility);
  }

  /** The ids of the repositories `visibility` lets through, as a subquery (issues across repositories). */
  visibleIds(visibility: SearchVisibility, options: { ownerId?: number; unit?: 'issues' | 'pulls'; exceptIds?: readonly number[] } = {}): Expression<number> {
    return this.scope.store(RepoSearchStore).visibleIds(visibility, options);
  }

  // ---- reads ----

  /** The repository with this id. */
  byId(id: number): Promise<Repository | undefined> {
    return this.repos.findById(id);
  }

  /** The repositories with these ids, in one query: keeps a page's query count fixed. */
  byIds(ids: readonly number[]): Promise<Repository[]> {
    return this.repos.findByIds(ids);
  }

  /** The repository of this owner with this name, case-insensitively (references, `owner/name` lookups). */
  byOwnerAndName(ownerId: number, name: string): Promise<Repository | undefined> {
    return this.repos.findByOwnerAndName(ownerId, name);
  }

  /** True when the account owns any repository (an organization with repositories cannot be deleted). */
  async ownsAny(ownerId: number): Promise<boolean> {
    return (await this.repos.allOf(ownerId)).length > 0;
  }

  /** Ids of the accounts watching a repository in one of `modes` (feeds and notifications fan out to them). */
  watcherIds(repoId: number, modes: readonly number[]): Promise<number[]> {
    return this.repos.watcherIds(repoId, modes);
  }

  /**
   * The private repositories an account reads only because it was given access (collaborations, teams): the
   * only ones where a team's per-unit rights can hide a unit.
   */
  privateGrantedTo(userId: number): Promise<Repository[]> {
    return this.scope.store(RepoSearchStore).privateGrantedTo(userId);
  }

  // ---- writes ----

  /** Creates a repository's row (a migration creates the repository it imports into). */
  insert(row: Insertable<RepositoryTable>): Promise<Repository> {
    return this.repos.insert(row);
  }

  /** Writes what a finished migration derived from the imported refs, and its status; undefined if the row is gone. */
  finishMigration(id: number, patch: Updateable<RepositoryTable>): Promise<Repository | undefined> {
    return this.repos.update(id, patch);
  }

  /** Records the bytes of the repository's git storage (after maintenance changed them). */
  async setSize(id: number, size: number): Promise<void> {
    await this.repos.update(id, { size });
  }

  /** Marks a repository empty, after its missing git storage was created anew. */
  async resetToEmpty(id: number, now: number): Promise<void> {
    await this.repos.update(id, { is_empty: 1, size: 0, updated_unix: now });
  }

  /** Turns a mirror into an ordinary repository; the updated row, undefined if it is gone. */
  stopMirroring(id: number, now: number): Promise<Repository | undefined> {
    return this.repos.update(id, { is_mirror: 0, updated_unix: now });
  }

  /**
   * Writes the repository's `topics` column (JSON of its topic names); undefined if the row is gone. Writing the
   * unchanged value first takes the row's lock for the rest of the transaction.
   */
  setTopics(id: number, topics: string): Promise<Repository | undefined> {
    return this.repos.update(id, { topics });
  }

  /**
   * Takes the repository row's write lock for the rest of the transaction, so that transactions changing one
   * repository's releases run one after the other and each counts what the previous committed.
   */
  lockForReleases(repoId: number): Promise<void> {
    return this.scope.store(RepoReleaseCountStore).lock(repoId);
  }

  /** Sets `num_releases`, which the releases domain counts (published releases); take `lockForReleases` first. */
  setReleaseCount(repoId: number, count: number): Promise<void> {
    return this.scope.store(RepoReleaseCountStore).set(repoId, count);
  }

  /**
   * Withdraws every transfer pending between two accounts, either way (a block ends them): the repositories
   * are ready again. Returns their ids.
   */
  cancelTransfersBetween(a: number, b: number): Promise<number[]> {
    return this.repos.cancelTransfersBetween(a, b);
  }
}
