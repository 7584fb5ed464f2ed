import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { CommitStatusSort, CommitStatusState } from './schemas.js';
import type { CommitStatus, CommitsTables, NewCommitStatus } from './tables.js';

type Ordering = readonly (readonly ['index' | 'created_unix' | 'updated_unix' | 'id', 'asc' | 'desc'])[];

/** Forgejo's orderings of a status list (its `leastindex` is the highest index first); absent: newest first. */
const STATUS_ORDERINGS: Record<CommitStatusSort | 'default', Ordering> = {
  oldest: [['created_unix', 'asc'], ['id', 'asc']],
  recentupdate: [['updated_unix', 'desc'], ['id', 'desc']],
  leastupdate: [['updated_unix', 'asc'], ['id', 'asc']],
  leastindex: [['index', 'desc'], ['id', 'desc']],
  highestindex: [['index', 'asc'], ['id', 'asc']],
  default: [['created_unix', 'desc'], ['id', 'desc']],
};

/** The `commit_status` table. */
export class CommitStatusesStore extends Store<CommitsTables> {
  /** Adds a status as the commit's next index (the unique index on repo, sha, index stops two writers taking one). */
  async insertNext(row: Omit<NewCommitStatus, 'index'>): Promise<CommitStatus> {
    const max = await this.db
      .selectFrom('commit_status')
      .select((eb) => eb.fn.max<number | null>('index').as('n'))
      .where('repo_id', '=', row.repo_id)
      .where('sha', '=', row.sha)
      .executeTakeFirst();
    const index = Number(max?.n ?? 0) + 1;
    return this.db.insertInto('commit_status').values({ ...row, index }).returningAll().executeTakeFirstOrThrow();
  }

  /** A page of a commit's statuses, with their count. */
  pageOf(repoId: number, sha: string, page: PageRequest, options: { sort?: CommitStatusSort; state?: CommitStatusState }): Promise<Page<CommitStatus>> {
    let base = this.db.selectFrom('commit_status').where('repo_id', '=', repoId).where('sha', '=', sha);
    if (options.state) base = base.where('state', '=', options.state);
    let query = base.selectAll();
    for (const [column, direction] of STATUS_ORDERINGS[options.sort ?? 'default']) query = query.orderBy(column, direction);
    return Store.page(query.limit(page.limit).offset(offsetOf(page)).execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** The newest status of each context of a commit (a page of them, by context's newest id), with how many contexts there are. */
  latestOf(repoId: number, sha: string, page: PageRequest): Promise<Page<CommitStatus>> {
    const latestIds = this.db
      .selectFrom('commit_status')
      .select((eb) => eb.fn.max<number>('id').as('id'))
      .where('repo_id', '=', repoId)
      .where('sha', '=', sha)
      .groupBy('context_hash');
    const items = this.db
      .selectFrom('commit_status')
      .selectAll()
      .where('id', 'in', latestIds)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(offsetOf(page))
      .execute();
    const total = this.db
      .selectFrom('commit_status')
      .select(sql<number>`count(distinct context_hash)`.as('n'))
      .where('repo_id', '=', repoId)
      .where('sha', '=', sha)
      .executeTakeFirst();
    return Store.page(items, total);
  }

  /** Deletes a repository's statuses (when the repository goes). */
  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('commit_status').where('repo_id', '=', repoId).execute();
  }
}
