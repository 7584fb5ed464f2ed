import { sql, type Updateable } from 'kysely';
import { containsText } from '../storage/index.js';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { Milestone, MilestoneTable, MilestonesTables, NewMilestone } from './tables.js';

/** Which of a repository's milestones a list shows. */
export interface MilestoneFilter {
  /** Absent: open and closed. */
  isClosed?: boolean;
  /** Part of the name, any case. */
  name?: string;
}

/** The `milestone` table. */
export class MilestonesStore extends Store<MilestonesTables> {
  /** One of a repository's milestones. */
  async byId(repoId: number, id: number): Promise<Milestone | null> {
    return (await this.db.selectFrom('milestone').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** Milestones by id (for showing them on a page of issues), in one query. */
  byIds(ids: readonly number[]): Promise<Milestone[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('milestone').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  /** The repository's milestone of exactly this name (the first made, should there be several). */
  async byName(repoId: number, name: string): Promise<Milestone | null> {
    return (await this.db.selectFrom('milestone').selectAll().where('repo_id', '=', repoId).where('name', '=', name).orderBy('id').limit(1).executeTakeFirst()) ?? null;
  }

  /** Stores the issue counts the issues domain counted for a milestone. */
  async setCounts(id: number, counts: { total: number; closed: number }): Promise<void> {
    await this.db.updateTable('milestone').set({ num_issues: counts.total, num_closed_issues: counts.closed }).where('id', '=', id).execute();
  }

  insert(row: NewMilestone): Promise<Milestone> {
    return this.db.insertInto('milestone').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, changes: Updateable<MilestoneTable>): Promise<Milestone | null> {
    return (await this.db.updateTable('milestone').set(changes).where('id', '=', id).returningAll().executeTakeFirst()) ?? null;
  }

  /** Deletes one milestone; false when it was gone already. */
  async delete(repoId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('milestone').where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('milestone').where('repo_id', '=', repoId).execute();
  }

  /**
   * A page of a repository's milestones in Forgejo's order: by due date, those without one last (Forgejo stores
   * them as due at the end of year 9999), then by name.
   */
  list(repoId: number, filter: MilestoneFilter, page: PageRequest): Promise<Page<Milestone>> {
    const base = this.db
      .selectFrom('milestone')
      .where('repo_id', '=', repoId)
      .$if(filter.isClosed !== undefined, (q) => q.where('is_closed', '=', filter.isClosed ? 1 : 0))
      .$if(!!filter.name, (q) => q.where(containsText(sql<string>`lower(name)`, filter.name!.toLowerCase())));
    const rows = base
      .selectAll()
      .orderBy(sql`case when deadline_unix = 0 then 1 else 0 end`)
      .orderBy('deadline_unix')
      .orderBy('name')
      .orderBy('id')
      .limit(page.limit)
      .offset(offsetOf(page));
    return Store.page(rows.execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }
}
