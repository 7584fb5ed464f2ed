import { Store } from '../storage/index.js';
import { nowUnix } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { User, UsersTables } from '../users/index.js';
import { userVisibleSql, type UserVisibilityFilter } from '../users/index.js';
import { repoListCondition, type RepoListFilter } from './list-filter.js';
import type { Repository, ReposTables, Watch } from './tables.js';

/** Forgejo's watch modes. */
export const WatchMode = { Normal: 1, Dont: 2, Auto: 3 } as const;

/** The modes that mean "watching" (2 is "don't watch": a row kept so that auto-watching stays off). */
export const WATCHING_MODES: readonly number[] = [WatchMode.Normal, WatchMode.Auto];

type WatchTables = ReposTables & Pick<UsersTables, 'user'> & { owner: UsersTables['user'] };

/**
 * The `watch` table: who follows a repository's activity. `repository.num_watches` counts the rows in a watching
 * mode; the methods that change a row's watching say so, and their callers move the counter in the same transaction.
 */
export class WatchesStore extends Store<WatchTables> {
  /** Sets a row's mode whatever it was (a repository's creator, whose counter the creation sets itself). */
  async watch(userId: number, repoId: number, mode: number = WatchMode.Normal): Promise<void> {
    const now = nowUnix();
    await this.db
      .insertInto('watch')
      .values({ user_id: userId, repo_id: repoId, mode, created_unix: now, updated_unix: now })
      .onConflict((oc) => oc.columns(['user_id', 'repo_id']).doUpdateSet({ mode, updated_unix: now }))
      .execute();
  }

  async isWatching(userId: number, repoId: number): Promise<boolean> {
    const row = await this.find(userId, repoId);
    return row !== undefined && WATCHING_MODES.includes(row.mode);
  }

  find(userId: number, repoId: number): Promise<Watch | undefined> {
    return this.db.selectFrom('watch').selectAll().where('user_id', '=', userId).where('repo_id', '=', repoId).executeTakeFirst();
  }

  /**
   * An explicit watch (Forgejo's mode "normal"). True when the account was not watching before: the caller adds
   * one watcher. Each statement changes a row only from a state that needs it, so two concurrent calls count once.
   */
  async startWatching(userId: number, repoId: number, now: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('watch')
      .values({ user_id: userId, repo_id: repoId, mode: WatchMode.Normal, created_unix: now, updated_unix: now })
      .onConflict((oc) => oc.columns(['user_id', 'repo_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return true;
    // "Don't watch" becomes watching (one more watcher); "auto" becomes an explicit watch, already counted.
    const unmuted = await this.db
      .updateTable('watch')
      .set({ mode: WatchMode.Normal, updated_unix: now })
      .where('user_id', '=', userId)
      .where('repo_id', '=', repoId)
      .where('mode', '=', WatchMode.Dont)
      .returning('id')
      .executeTakeFirst();
    if (unmuted) return true;
    await this.db
      .updateTable('watch')
      .set({ mode: WatchMode.Normal, updated_unix: now })
      .where('user_id', '=', userId)
      .where('repo_id', '=', repoId)
      .where('mode', '=', WatchMode.Auto)
      .execute();
    return false;
  }

  /**
   * Stops watching, as Forgejo: an explicit watch goes, an automatic one becomes "don't watch" (so pushes do not
   * bring it back). True when the account was watching: the caller removes one watcher.
   */
  async stopWatching(userId: number, repoId: number, now: number): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom('watch')
      .where('user_id', '=', userId)
      .where('repo_id', '=', repoId)
      .where('mode', '=', WatchMode.Normal)
      .returning('id')
      .executeTakeFirst();
    if (deleted) return true;
    const muted = await this.db
      .updateTable('watch')
      .set({ mode: WatchMode.Dont, updated_unix: now })
      .where('user_id', '=', userId)
      .where('repo_id', '=', repoId)
      .where('mode', '=', WatchMode.Auto)
      .returning('id')
      .executeTakeFirst();
    return muted !== undefined;
  }

  /** Repositories `userId` watches that `filter` lets through, in the order they were watched. */
  listWatched(userId: number, filter: RepoListFilter, page: PageRequest): Promise<Page<Repository>> {
    const base = this.db
      .selectFrom('watch')
      .innerJoin('repository', 'repository.id', 'watch.repo_id')
      .innerJoin('user as owner', 'owner.id', 'repository.owner_id')
      .where('watch.user_id', '=', userId)
      .where('watch.mode', 'in', [...WATCHING_MODES])
      .where((eb) => repoListCondition(eb, filter));
    return Store.page(
      base.selectAll('repository').orderBy('watch.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Accounts watching `repoId` that `shown` lets through, in the order they started. */
  listWatchers(repoId: number, shown: UserVisibilityFilter, page: PageRequest): Promise<Page<User>> {
    const base = this.db
      .selectFrom('watch')
      .innerJoin('user', 'user.id', 'watch.user_id')
      .where('watch.repo_id', '=', repoId)
      .where('watch.mode', 'in', [...WATCHING_MODES])
      .where(userVisibleSql(shown));
    return Store.page(
      base.selectAll('user').orderBy('watch.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /**
   * Removes the watches of `userId` (on the repositories of `ownerId` only, when given); returns the repositories
   * it was watching (not those it had muted).
   */
  async deleteOf(userId: number, ownerId?: number): Promise<number[]> {
    let query = this.db.deleteFrom('watch').where('user_id', '=', userId);
    if (ownerId !== undefined) query = query.where('repo_id', 'in', (eb) => eb.selectFrom('repository').select('id').where('owner_id', '=', ownerId));
    const rows = await query.returning(['repo_id', 'mode']).execute();
    return rows.filter((r) => WATCHING_MODES.includes(r.mode)).map((r) => r.repo_id);
  }
}
