import type { Expression, Insertable, SqlBool, Updateable } from 'kysely';
import type { StoreScope } from '../storage/index.js';
import { ReposStore } from './store.js';
import { RepoSearchStore, visible } from './search-store.js';
import { RepoReleaseCountStore } from './release-count-store.js';
import type { Repository, RepositoryTable } from './tables.js';
import type { SearchVisibility } from './types.js';
import { RepoCountersStore, type RepoCounterDeltas } from './counters.js';
import { WatchesStore, WatchMode } from './watches.js';
import { GitIntentStore, type GitIntentOp } from './intents.js';
import type { RepoKey } from '../git/index.js';
import type { User } from '../users/index.js';
import type { UserVisibilityFilter } from '../users/index.js';
import type { RepoListFilter } from './list-filter.js';
import type { Page, PageRequest } from '../paging.js';
import type { RepoGitIntent } from './tables.js';

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

  /** Repositories after `afterId`, by id, at most `limit` (a walk over every repository in batches). */
  after(afterId: number, limit: number): Promise<Repository[]> {
    return this.repos.findAfter(afterId, limit);
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
  // ---- counters other domains' changes move (stars, watches, issue and pull counts) ----

  /** Adds these deltas to the counters of these repositories. */
  adjustCounters(ids: readonly number[], deltas: RepoCounterDeltas): Promise<void> {
    return this.scope.store(RepoCountersStore).adjust(ids, deltas);
  }

  /**
   * Locks the repository's issue and pull request counters (its row) for the rest of the transaction, before the
   * issues domain counts them (`IssuesPort.recountAfterStateChange`): concurrent recounts then write in turn.
   * Taken first, before the transaction writes any issue or pull request row: a push's transaction writes the
   * repository row and then its pull requests' tips, and one that locked in the other order could deadlock with it
   * (PostgreSQL; SQLite has one writer).
   */
  lockIssueCounts(id: number): Promise<void> {
    return this.scope.store(RepoCountersStore).lock(id);
  }

  /** Stores the issue and pull request counts the issues domain counted (`IssuesPort.recountAfterStateChange`). */
  setIssueCounts(id: number, counts: { issues: number; closedIssues: number; pulls: number; closedPulls: number }): Promise<void> {
    return this.scope.store(RepoCountersStore).setIssueCounts(id, counts);
  }

  // ---- watches (the social domain keeps the API; the rows and `num_watches` are the repository's) ----

  /** Makes the account a watcher (a migration's doer, as Forgejo does); the counter is the caller's to set. */
  watch(userId: number, repoId: number, mode: number = WatchMode.Normal): Promise<void> {
    return this.scope.store(WatchesStore).watch(userId, repoId, mode);
  }

  /** Whether the account watches the repository. */
  isWatching(userId: number, repoId: number): Promise<boolean> {
    return this.scope.store(WatchesStore).isWatching(userId, repoId);
  }

  /** Starts watching; whether the account was not watching before (so the counter moves). */
  startWatching(userId: number, repoId: number, now: number): Promise<boolean> {
    return this.scope.store(WatchesStore).startWatching(userId, repoId, now);
  }

  /** Stops watching; whether the account was watching (so the counter moves). */
  stopWatching(userId: number, repoId: number, now: number): Promise<boolean> {
    return this.scope.store(WatchesStore).stopWatching(userId, repoId, now);
  }

  /** A page of the repositories the account watches, filtered by what the viewer may see. */
  listWatched(userId: number, filter: RepoListFilter, page: PageRequest): Promise<Page<Repository>> {
    return this.scope.store(WatchesStore).listWatched(userId, filter, page);
  }

  /** A page of the repository's watchers the viewer may see. */
  listWatchers(repoId: number, shown: UserVisibilityFilter, page: PageRequest): Promise<Page<User>> {
    return this.scope.store(WatchesStore).listWatchers(repoId, shown, page);
  }

  /** Deletes the account's watches (of one owner's repositories when given); the repositories it watched. */
  deleteWatchesOf(userId: number, ownerId?: number): Promise<number[]> {
    return this.scope.store(WatchesStore).deleteOf(userId, ownerId);
  }

  // ---- git intents (the start-up reconcile's record of git changes in flight; see `intents.ts`) ----

  /** Records a git change about to start; its id, to delete when the database side is done. */
  beginIntent(op: GitIntentOp, key: RepoKey, repoId = 0): Promise<number> {
    return this.scope.store(GitIntentStore).insert(op, key, repoId);
  }

  /** Marks a git change finished on both sides. */
  endIntent(id: number): Promise<void> {
    return this.scope.store(GitIntentStore).delete(id);
  }

  /** The git changes in flight (or, before the reconcile, interrupted). */
  intents(): Promise<RepoGitIntent[]> {
    return this.scope.store(GitIntentStore).all();
  }
}
