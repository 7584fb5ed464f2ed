import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { IssuesTables } from '../issues/index.js';
import type { NewTrackedTime, Stopwatch, TimesTables, TrackedTime, TrackedTimeFilter } from './tables.js';

export type { TrackedTimeFilter };

// The repository filter reads which repository an issue belongs to, as Forgejo's join does.
type Tables = TimesTables & Pick<IssuesTables, 'issue'>;

function matches(eb: ExpressionBuilder<Tables, 'tracked_time'>, filter: TrackedTimeFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb('tracked_time.deleted', '=', 0)];
  if (filter.issueId !== undefined) all.push(eb('tracked_time.issue_id', '=', filter.issueId));
  if (filter.userId !== undefined) all.push(eb('tracked_time.user_id', '=', filter.userId));
  if (filter.since !== undefined) all.push(eb('tracked_time.created_unix', '>=', filter.since));
  if (filter.before !== undefined) all.push(eb('tracked_time.created_unix', '<=', filter.before));
  if (filter.repoId !== undefined) {
    all.push(eb('tracked_time.issue_id', 'in', eb.selectFrom('issue').select('issue.id').where('issue.repo_id', '=', filter.repoId)));
  }
  return eb.and(all);
}

/** The `tracked_time` table. */
export class TrackedTimesStore extends Store<Tables> {
  insert(row: NewTrackedTime): Promise<TrackedTime> {
    return this.db.insertInto('tracked_time').values(row).returningAll().executeTakeFirstOrThrow();
  }

  byId(id: number): Promise<TrackedTime | undefined> {
    return this.db.selectFrom('tracked_time').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Tracked times by id, in one query (deleted ones too: a timeline shows what was tracked then). */
  byIds(ids: readonly number[]): Promise<TrackedTime[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('tracked_time').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  /** A page of the times `filter` lets through, oldest first, and their count. */
  page(filter: TrackedTimeFilter, page: PageRequest): Promise<Page<TrackedTime>> {
    const base = this.db.selectFrom('tracked_time').where((eb) => matches(eb, filter));
    return Store.page(
      base.selectAll().orderBy('tracked_time.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Every time `filter` lets through, oldest first. */
  all(filter: TrackedTimeFilter): Promise<TrackedTime[]> {
    return this.db.selectFrom('tracked_time').selectAll().where((eb) => matches(eb, filter)).orderBy('tracked_time.id').execute();
  }

  /** Marks one time deleted; false when it was already. */
  async markDeleted(id: number): Promise<boolean> {
    const result = await this.db.updateTable('tracked_time').set({ deleted: 1 }).where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks every live time of a user on an issue deleted; returns the seconds they held. */
  async markDeletedOfIssueUser(issueId: number, userId: number): Promise<{ count: number; seconds: number }> {
    const rows = await this.db
      .updateTable('tracked_time')
      .set({ deleted: 1 })
      .where('issue_id', '=', issueId)
      .where('user_id', '=', userId)
      .where('deleted', '=', 0)
      .returning('time')
      .execute();
    return { count: rows.length, seconds: rows.reduce((sum, row) => sum + Number(row.time), 0) };
  }
}

/** The `stopwatch` table. */
export class StopwatchesStore extends Store<TimesTables> {
  /**
   * Serializes one user's stopwatch changes until the transaction ends, so two concurrent starts cannot leave two
   * running. SQLite already runs one writer at a time.
   */
  async lockUser(userId: number): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres') return;
    // Two-key advisory lock: a fixed class (the bytes of "stpw") and the user.
    await sql`SELECT pg_advisory_xact_lock(${0x73747077}, ${userId % 0x7fffffff})`.execute(this.db);
  }

  find(userId: number, issueId: number): Promise<Stopwatch | undefined> {
    return this.db.selectFrom('stopwatch').selectAll().where('user_id', '=', userId).where('issue_id', '=', issueId).executeTakeFirst();
  }

  /** The user's running stopwatches (Forgejo keeps at most one running; any left over are stopped too). */
  ofUser(userId: number): Promise<Stopwatch[]> {
    return this.db.selectFrom('stopwatch').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  }

  pageOfUser(userId: number, page: PageRequest): Promise<Page<Stopwatch>> {
    const base = this.db.selectFrom('stopwatch').where('user_id', '=', userId);
    return Store.page(
      base.selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Starts one; undefined when the user already runs one on this issue (the unique key decides under concurrency). */
  async insert(userId: number, issueId: number, createdUnix: number): Promise<Stopwatch | undefined> {
    return this.db
      .insertInto('stopwatch')
      .values({ user_id: userId, issue_id: issueId, created_unix: createdUnix })
      .onConflict((oc) => oc.columns(['user_id', 'issue_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /** Removes every stopwatch of a user (their account goes). */
  async deleteOfUser(userId: number): Promise<void> {
    await this.db.deleteFrom('stopwatch').where('user_id', '=', userId).execute();
  }

  /** Removes one; false when another request removed it first. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('stopwatch').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
