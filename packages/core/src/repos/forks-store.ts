import { sql, type Expression } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { Repository, ReposTables } from './tables.js';

/** The fork relation of `repository` rows (`is_fork`, `fork_id`, `num_forks`). */
export class ForksStore extends Store<ReposTables> {
  /** One of `ownerId`'s forks of any repository in `parentIds` (Forgejo's GetUserFork), if it has one. */
  findForkOf(ownerId: number, parentIds: readonly number[]): Promise<Repository | undefined> {
    return this.db
      .selectFrom('repository')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('is_fork', '=', 1)
      .where('fork_id', 'in', [...new Set(parentIds)])
      .orderBy('id')
      .executeTakeFirst();
  }

  /** Moves a repository's `num_forks` by `delta`, in SQL, so concurrent forks and deletions all count. */
  async adjustForkCount(repoId: number, delta: number): Promise<void> {
    await this.db.updateTable('repository').set({ num_forks: sql`num_forks + ${delta}` }).where('id', '=', repoId).execute();
  }

  /** Forks of a deleted repository become repositories of their own, as Forgejo leaves them. */
  async detachForksOf(repoId: number): Promise<void> {
    await this.db.updateTable('repository').set({ is_fork: 0, fork_id: 0 }).where('fork_id', '=', repoId).where('is_fork', '=', 1).execute();
  }

  /** Makes the public forks of `repoId` private; returns them as they are now. */
  hideForksOf(repoId: number): Promise<Repository[]> {
    return this.db
      .updateTable('repository')
      .set({ is_private: 1 })
      .where('fork_id', '=', repoId)
      .where('is_fork', '=', 1)
      .where('is_private', '=', 0)
      .returningAll()
      .execute();
  }

  /** A page of the forks of `parentId` among `visibleIds` (a subquery), oldest first, and how many there are. */
  listForks(parentId: number, visibleIds: Expression<number>, page: PageRequest): Promise<Page<Repository>> {
    const base = this.db.selectFrom('repository').where('fork_id', '=', parentId).where('is_fork', '=', 1).where('id', 'in', visibleIds);
    return Store.page(
      base.selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }
}
