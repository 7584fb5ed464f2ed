import type { Insertable, Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import { isStorableText } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { OwnedRepoFilter } from '../access/index.js';
import { AccessPort } from '../access/index.js';
import type { RepoOrderBy } from './schemas.js';
import { RepoStatus, type RepoTransfer, type RepoTransferTable, type Repository, type RepositoryTable, type ReposTables } from './tables.js';

type SortColumn = 'lower_name' | 'id' | 'created_unix' | 'updated_unix' | 'size' | 'num_stars' | 'num_forks';
type Ordering = readonly (readonly [SortColumn, 'asc' | 'desc'])[];

const ORDERINGS: Record<RepoOrderBy, Ordering> = {
  name: [['lower_name', 'asc']],
  id: [['id', 'asc']],
  alphabetically: [['lower_name', 'asc']],
  reversealphabetically: [['lower_name', 'desc']],
  newest: [['created_unix', 'desc'], ['id', 'desc']],
  oldest: [['created_unix', 'asc'], ['id', 'asc']],
  recentupdate: [['updated_unix', 'desc'], ['id', 'desc']],
  leastupdate: [['updated_unix', 'asc'], ['id', 'asc']],
  size: [['size', 'asc'], ['id', 'asc']],
  reversesize: [['size', 'desc'], ['id', 'desc']],
  moststars: [['num_stars', 'desc'], ['id', 'desc']],
  feweststars: [['num_stars', 'asc'], ['id', 'asc']],
  mostforks: [['num_forks', 'desc'], ['id', 'desc']],
  fewestforks: [['num_forks', 'asc'], ['id', 'asc']],
};

/** The orderings a repository list accepts, by their API name (`order_by`): a Map, so input names no prototype member. */
export const REPO_ORDERINGS: ReadonlyMap<string, Ordering> = new Map(Object.entries(ORDERINGS));

/** The `repository` table. */
export class ReposStore extends Store<ReposTables> {
  /** Repository by owner and name, compiled once: the hottest read, where building the SQL cost more than running it. */
  private readonly byOwnerAndName = this.precompiled<Repository, 'owner' | 'name'>('byOwnerAndName', (db, param) =>
    db.selectFrom('repository').selectAll().where('owner_id', '=', param('owner')).where('lower_name', '=', param('name')),
  );

  async findByOwnerAndName(ownerId: number, name: string): Promise<Repository | undefined> {
    if (!isStorableText(name)) return undefined;
    return (await this.byOwnerAndName({ owner: ownerId, name: name.toLowerCase() }))[0];
  }

  insert(row: Insertable<RepositoryTable>): Promise<Repository> {
    return this.db.insertInto('repository').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, patch: Updateable<RepositoryTable>): Promise<Repository | undefined> {
    return this.db.updateTable('repository').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** True when the row existed. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('repository').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Repositories by id, in one query. */
  findByIds(ids: readonly number[]): Promise<Repository[]> {
    return this.byIdsQuery(ids);
  }

  private readonly byIdsQuery = this.precompiledIn('byIds', (db, ids) => db.selectFrom('repository').selectAll().where('id', 'in', ids));

  /** Repositories after `afterId`, by id (a walk over every repository in batches). */
  findAfter(afterId: number, limit: number): Promise<Repository[]> {
    return this.db.selectFrom('repository').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  findById(id: number): Promise<Repository | undefined> {
    return this.db.selectFrom('repository').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every row's owner and storage name (for comparing the database with storage). */
  allNames(): Promise<{ id: number; owner_id: number; lower_name: string }[]> {
    return this.db.selectFrom('repository').select(['id', 'owner_id', 'lower_name']).orderBy('id').execute();
  }

  /** Every repository of an owner, unpaged (for deleting an account). */
  allOf(ownerId: number): Promise<Repository[]> {
    return this.db.selectFrom('repository').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  }

  /**
   * Changes the row only while its owner, name and status are still what the caller read (`expected`): undefined
   * when a concurrent change got there first, so two renames or transfers of one repository cannot both win.
   */
  updateIfUnchanged(
    id: number,
    expected: Pick<Repository, 'owner_id' | 'lower_name' | 'status'>,
    patch: Updateable<RepositoryTable>,
  ): Promise<Repository | undefined> {
    return this.db
      .updateTable('repository')
      .set(patch)
      .where('id', '=', id)
      .where('owner_id', '=', expected.owner_id)
      .where('lower_name', '=', expected.lower_name)
      .where('status', '=', expected.status)
      .returningAll()
      .executeTakeFirst();
  }

  /** Ids of the accounts watching a repository in one of `modes` (Forgejo's watch modes). */
  async watcherIds(repoId: number, modes: readonly number[]): Promise<number[]> {
    const rows = await this.db.selectFrom('watch').select('user_id').where('repo_id', '=', repoId).where('mode', 'in', [...modes]).execute();
    return rows.map((r) => r.user_id);
  }

  /** The pending transfer of a repository, if one is offered. */
  findTransfer(repoId: number): Promise<RepoTransfer | undefined> {
    return this.db.selectFrom('repo_transfer').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
  }

  /** The pending transfers of several repositories, in one query. */
  transfersOf(repoIds: readonly number[]): Promise<RepoTransfer[]> {
    if (repoIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('repo_transfer').selectAll().where('repo_id', 'in', [...repoIds]).execute();
  }

  insertTransfer(row: Insertable<RepoTransferTable>): Promise<RepoTransfer> {
    return this.db.insertInto('repo_transfer').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async deleteTransfers(repoId: number): Promise<void> {
    await this.db.deleteFrom('repo_transfer').where('repo_id', '=', repoId).execute();
  }

  /**
   * Withdraws every transfer pending between two accounts, either way (a repository of `a` offered to `b`, or of
   * `b` to `a`): the repositories are ready again. Returns their ids.
   */
  async cancelTransfersBetween(a: number, b: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('repo_transfer')
      .innerJoin('repository', 'repository.id', 'repo_transfer.repo_id')
      .select('repository.id')
      .where((eb) =>
        eb.or([
          eb.and([eb('repository.owner_id', '=', a), eb('repo_transfer.recipient_id', '=', b)]),
          eb.and([eb('repository.owner_id', '=', b), eb('repo_transfer.recipient_id', '=', a)]),
        ]),
      )
      .execute();
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return ids;
    await this.db.deleteFrom('repo_transfer').where('repo_id', 'in', ids).execute();
    await this.db.updateTable('repository').set({ status: RepoStatus.Ready }).where('id', 'in', ids).where('status', '=', RepoStatus.PendingTransfer).execute();
    return ids;
  }

  /** A page of the owner's repositories that `visible` lets through, and their count: both from the same filter. */
  async listOf(ownerId: number, options: { visible: OwnedRepoFilter; ordering: Ordering; page: PageRequest }): Promise<Page<Repository>> {
    const { visible } = options;
    if (!visible.all && !visible.publicRepos && visible.grantedTo === undefined) return { items: [], total: 0 };
    let base = this.db.selectFrom('repository').where('owner_id', '=', ownerId);
    if (!visible.all) {
      base = base.where((eb) => {
        const any = [];
        if (visible.publicRepos) any.push(eb('is_private', '=', 0));
        // Collaborations and teams: the access domain's subquery.
        if (visible.grantedTo !== undefined) any.push(eb('id', 'in', AccessPort.grantedRepoIds(visible.grantedTo)));
        return eb.or(any);
      });
    }
    const { limit } = visible;
    if (limit) base = base.where((eb) => eb.or([eb('id', 'in', limit.ids.length > 0 ? [...limit.ids] : [0]), ...(limit.publicToo ? [eb('is_private', '=', 0)] : [])]));
    let query = base.selectAll();
    for (const [column, direction] of options.ordering) query = query.orderBy(column, direction);
    return Store.page(
      query.limit(options.page.limit).offset(offsetOf(options.page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }
}
