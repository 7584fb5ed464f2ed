import { sql, type Expression, type ExpressionBuilder, type SqlBool, type Updateable } from 'kysely';
import { containsText, nowUnix } from '../storage/index.js';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { IssueSort } from './schemas.js';
import type { Issue, IssueTable, IssuesTables, NewIssue } from './tables.js';

type Eb = ExpressionBuilder<IssuesTables, 'issue'>;

/** Ids per statement: well under SQLite's limit of bound parameters. */
const MAX_IDS = 500;

/** Which issues a list shows; every field narrows it. Ids are already resolved from names. */
export interface IssueFilter {
  /** One repository, or the repositories a subquery yields (a search: those the actor may see). */
  repoId?: number;
  repoIds?: Expression<number>;
  /** Per kind: issues from these repositories, pull requests from those (a search where units differ). */
  repoIdsByKind?: { issues: Expression<number>; pulls: Expression<number> };
  isPull?: boolean;
  isClosed?: boolean;
  /** Issues carrying, for every group, one of its labels (Forgejo: every label named; a name may be several labels). */
  labelIdGroups?: readonly (readonly number[])[];
  /** Issues in any of these milestones. */
  milestoneIds?: readonly number[];
  posterId?: number;
  assigneeId?: number;
  /** Issues whose title or body mention `@name` (Forgejo keeps mentions in a table; the body holds them too). */
  mentionedName?: string;
  /** Words that must all appear in the title or body (case-insensitive). */
  keywords?: readonly string[];
  /** Issues of these indexes (a keyword that is a number matches the index too). */
  indexes?: readonly number[];
  updatedSince?: number;
  updatedBefore?: number;
  /** Issues among those a subquery yields (another domain's narrowing: pull requests into a branch, say). */
  ids?: Expression<number>;
}

/** The orders a list may take: those of the issue list, and the pull request list's own. */
export type IssueOrder = IssueSort | 'recentclose' | 'priority';

const ORDERINGS: Record<IssueOrder, readonly (readonly [keyof IssueTable, 'asc' | 'desc'])[]> = {
  relevance: [['created_unix', 'desc'], ['id', 'desc']],
  latest: [['created_unix', 'desc'], ['id', 'desc']],
  oldest: [['created_unix', 'asc'], ['id', 'asc']],
  recentupdate: [['updated_unix', 'desc'], ['id', 'desc']],
  leastupdate: [['updated_unix', 'asc'], ['id', 'asc']],
  mostcomment: [['num_comments', 'desc'], ['id', 'desc']],
  leastcomment: [['num_comments', 'asc'], ['id', 'asc']],
  nearduedate: [['deadline_unix', 'asc'], ['id', 'desc']],
  farduedate: [['deadline_unix', 'desc'], ['id', 'desc']],
  recentclose: [['closed_unix', 'desc'], ['id', 'desc']],
  priority: [['priority', 'desc'], ['updated_unix', 'desc'], ['id', 'desc']],
};

/** The issue tables: issues, their index sequence, assignees, labels and dependencies. */
export class IssuesStore extends Store<IssuesTables> {
  /** Every issue and pull request of the instance. */
  async countAll(): Promise<number> {
    return Store.count(await this.db.selectFrom('issue').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  private readonly byIndexQuery = this.precompiled<Issue, 'repoId' | 'index'>('byIndex', (db, param) =>
    db.selectFrom('issue').selectAll().where('repo_id', '=', param('repoId')).where('index', '=', param('index')),
  );

  /**
   * The next index of a repository's issues and pull requests. The row lock of the upsert serializes concurrent
   * creators, so two issues never get one number and numbers stay dense.
   */
  async nextIndex(repoId: number): Promise<number> {
    const row = await this.db
      .insertInto('issue_index')
      .values({ group_id: repoId, max_index: 1 })
      .onConflict((oc) => oc.column('group_id').doUpdateSet({ max_index: sql`issue_index.max_index + 1` }))
      .returning('max_index')
      .executeTakeFirstOrThrow();
    return Number(row.max_index);
  }

  insert(row: NewIssue): Promise<Issue> {
    return this.db.insertInto('issue').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async byIndex(repoId: number, index: number): Promise<Issue | undefined> {
    return (await this.byIndexQuery({ repoId, index }))[0];
  }

  byId(id: number): Promise<Issue | undefined> {
    return this.db.selectFrom('issue').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byIds(ids: readonly number[]): Promise<Issue[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('issue').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  update(id: number, changes: Updateable<IssueTable>): Promise<Issue> {
    return this.db.updateTable('issue').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** Marks the issue as changed now (a comment, a label, an assignee…). */
  async touch(id: number): Promise<void> {
    await this.db.updateTable('issue').set({ updated_unix: nowUnix() }).where('id', '=', id).execute();
  }

  /** Takes the issue row's write lock until the transaction ends (PostgreSQL; SQLite runs one writer at a time). */
  async lockRow(id: number): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres' || !this.scope.inTransaction) return;
    await this.db.selectFrom('issue').select('id').where('id', '=', id).forUpdate().execute();
  }

  /**
   * Sets the comment count recounted after a deletion, without marking the issue changed (Forgejo's
   * UpdateIssueNumComments leaves `updated_unix` alone).
   */
  async setNumComments(issueId: number, count: number): Promise<void> {
    await this.db.updateTable('issue').set({ num_comments: count }).where('id', '=', issueId).execute();
  }

  /** Sets the issue's updated time to a given moment, without reading it back (Forgejo's `SetIssueUpdateDate`). */
  async setUpdateDate(id: number, unix: number): Promise<void> {
    await this.db.updateTable('issue').set({ updated_unix: unix }).where('id', '=', id).execute();
  }

  /** Takes a milestone off every issue that carries it (Forgejo leaves no timeline entry and no change time). */
  async clearMilestone(milestoneId: number): Promise<void> {
    await this.db.updateTable('issue').set({ milestone_id: 0 }).where('milestone_id', '=', milestoneId).execute();
  }

  /** Moves the count of plain comments, and marks the issue changed. */
  async addComments(id: number, delta: number): Promise<void> {
    await this.db
      .updateTable('issue')
      .set({ num_comments: sql`num_comments + ${delta}`, updated_unix: nowUnix() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('issue').where('id', '=', id).execute();
  }

  /** Deletes a repository's issues (their assignees, labels, dependencies and comments cascade) and its index. */
  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('issue').where('repo_id', '=', repoId).execute();
    await this.db.deleteFrom('issue_index').where('group_id', '=', repoId).execute();
  }

  private readonly assigneesOfQuery = this.precompiledIn('assigneesOf', (db, issueIds) =>
    db.selectFrom('issue_assignees').select(['issue_id', 'assignee_id']).where('issue_id', 'in', issueIds).orderBy('id'),
  );
  private readonly labelIdsOfQuery = this.precompiledIn('labelIdsOf', (db, issueIds) =>
    db.selectFrom('issue_label').select(['issue_id', 'label_id']).where('issue_id', 'in', issueIds).orderBy('id'),
  );

  /** The assignees of each issue (user ids in the order they were assigned). */
  async assigneesOf(issueIds: readonly number[]): Promise<Map<number, number[]>> {
    const byIssue = new Map<number, number[]>();
    if (issueIds.length === 0) return byIssue;
    const rows = await this.assigneesOfQuery(issueIds);
    for (const row of rows) {
      let list = byIssue.get(row.issue_id);
      if (!list) byIssue.set(row.issue_id, (list = []));
      list.push(row.assignee_id);
    }
    return byIssue;
  }

  async addAssignees(issueId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.insertInto('issue_assignees').values(userIds.map((assignee_id) => ({ issue_id: issueId, assignee_id }))).execute();
  }

  async removeAssignees(issueId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.db.deleteFrom('issue_assignees').where('issue_id', '=', issueId).where('assignee_id', 'in', userIds).execute();
  }

  /** The label ids of each issue. */
  async labelIdsOf(issueIds: readonly number[]): Promise<Map<number, number[]>> {
    const byIssue = new Map<number, number[]>();
    if (issueIds.length === 0) return byIssue;
    const rows = await this.labelIdsOfQuery(issueIds);
    for (const row of rows) {
      let list = byIssue.get(row.issue_id);
      if (!list) byIssue.set(row.issue_id, (list = []));
      list.push(row.label_id);
    }
    return byIssue;
  }

  /**
   * How many issues each of these milestones holds, and how many of them are closed, in one grouped query per
   * 500 ids; a milestone holding none is absent.
   */
  async countsOfMilestones(milestoneIds: readonly number[]): Promise<Map<number, { total: number; closed: number }>> {
    const counts = new Map<number, { total: number; closed: number }>();
    const ids = [...new Set(milestoneIds)];
    for (let i = 0; i < ids.length; i += MAX_IDS) {
      const rows = await this.db
        .selectFrom('issue')
        .select((eb) => ['milestone_id', eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('is_closed').as('closed')])
        .where('milestone_id', 'in', ids.slice(i, i + MAX_IDS))
        .groupBy('milestone_id')
        .execute();
      for (const r of rows) counts.set(Number(r.milestone_id), { total: Number(r.total), closed: Number(r.closed ?? 0) });
    }
    return counts;
  }

  /** A repository's issue and pull request counts, open and closed, for its counters. */
  async countsOfRepo(repoId: number): Promise<{ issues: number; closedIssues: number; pulls: number; closedPulls: number }> {
    const rows = await this.db
      .selectFrom('issue')
      .select((eb) => ['is_pull', 'is_closed', eb.fn.countAll<number>().as('n')])
      .where('repo_id', '=', repoId)
      .groupBy(['is_pull', 'is_closed'])
      .execute();
    const counts = { issues: 0, closedIssues: 0, pulls: 0, closedPulls: 0 };
    for (const row of rows) {
      const n = Number(row.n);
      if (row.is_pull) {
        counts.pulls += n;
        if (row.is_closed) counts.closedPulls += n;
      } else {
        counts.issues += n;
        if (row.is_closed) counts.closedIssues += n;
      }
    }
    return counts;
  }

  /** How many of the issues this issue depends on are still open (closing it waits for them). */
  async countOpenDependencies(issueId: number): Promise<number> {
    const row = await this.db
      .selectFrom('issue_dependency')
      .innerJoin('issue', 'issue.id', 'issue_dependency.dependency_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('issue_dependency.issue_id', '=', issueId)
      .where('issue.is_closed', '=', 0)
      .executeTakeFirst();
    return Store.count(row);
  }

  /** A page of the issues `filter` lets through, in `sort` order, and their count. */
  list(filter: IssueFilter, sort: IssueOrder, page: PageRequest): Promise<Page<Issue>> {
    const base = this.db.selectFrom('issue').where((eb) => matches(eb, filter));
    let rows = base.selectAll();
    for (const [column, direction] of ORDERINGS[sort]) rows = rows.orderBy(column, direction);
    return Store.page(rows.limit(page.limit).offset(offsetOf(page)).execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }
}

function matches(eb: Eb, filter: IssueFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [];
  if (filter.repoId !== undefined) all.push(eb('issue.repo_id', '=', filter.repoId));
  if (filter.repoIds !== undefined) all.push(eb('issue.repo_id', 'in', filter.repoIds));
  if (filter.ids !== undefined) all.push(eb('issue.id', 'in', filter.ids));
  if (filter.repoIdsByKind !== undefined) {
    const { issues, pulls } = filter.repoIdsByKind;
    all.push(
      eb.or([
        eb.and([eb('issue.is_pull', '=', 0), eb('issue.repo_id', 'in', issues)]),
        eb.and([eb('issue.is_pull', '=', 1), eb('issue.repo_id', 'in', pulls)]),
      ]),
    );
  }
  if (filter.isPull !== undefined) all.push(eb('issue.is_pull', '=', filter.isPull ? 1 : 0));
  if (filter.isClosed !== undefined) all.push(eb('issue.is_closed', '=', filter.isClosed ? 1 : 0));
  if (filter.posterId !== undefined) all.push(eb('issue.poster_id', '=', filter.posterId));
  if (filter.updatedSince !== undefined) all.push(eb('issue.updated_unix', '>=', filter.updatedSince));
  if (filter.updatedBefore !== undefined) all.push(eb('issue.updated_unix', '<=', filter.updatedBefore));
  if (filter.milestoneIds !== undefined) {
    all.push(filter.milestoneIds.length > 0 ? eb('issue.milestone_id', 'in', [...filter.milestoneIds]) : sql<SqlBool>`1 = 0`);
  }
  for (const group of filter.labelIdGroups ?? []) {
    all.push(eb('issue.id', 'in', eb.selectFrom('issue_label').select('issue_label.issue_id').where('issue_label.label_id', 'in', [...group])));
  }
  if (filter.assigneeId !== undefined) {
    all.push(eb('issue.id', 'in', eb.selectFrom('issue_assignees').select('issue_assignees.issue_id').where('issue_assignees.assignee_id', '=', filter.assigneeId)));
  }
  if (filter.mentionedName !== undefined) {
    all.push(eb.or([containsText(sql<string>`lower(issue.content)`, `@${filter.mentionedName.toLowerCase()}`), containsText(sql<string>`lower(issue.name)`, `@${filter.mentionedName.toLowerCase()}`)]));
  }
  for (const word of filter.keywords ?? []) {
    const text = eb.or([containsText(sql<string>`lower(issue.name)`, word.toLowerCase()), containsText(sql<string>`lower(issue.content)`, word.toLowerCase())]);
    all.push(filter.indexes && filter.indexes.length > 0 ? eb.or([text, eb('issue.index', 'in', [...filter.indexes])]) : text);
  }
  return all.length > 0 ? eb.and(all) : sql<SqlBool>`1 = 1`;
}
