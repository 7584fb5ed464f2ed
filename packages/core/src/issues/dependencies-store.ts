import { sql } from 'kysely';
import { nowUnix } from '../storage/index.js';
import { Store } from '../storage/index.js';
import type { Issue, IssuesTables } from './tables.js';

/**
 * The `issue_dependency` table: `issue_id` depends on (is blocked by) `dependency_id`. Lists come back in Forgejo's
 * order: the issue's own repository first, then by repository, newest issue first.
 */
export class IssueDependenciesStore extends Store<IssuesTables> {
  /** The issues `issueId` depends on (its blockers). */
  blockersOf(issueId: number, ownRepoId: number): Promise<Issue[]> {
    return this.db
      .selectFrom('issue_dependency')
      .innerJoin('issue', 'issue.id', 'issue_dependency.dependency_id')
      .selectAll('issue')
      .where('issue_dependency.issue_id', '=', issueId)
      .orderBy(sql`CASE WHEN issue.repo_id = ${ownRepoId} THEN 0 ELSE issue.repo_id END`)
      .orderBy('issue.created_unix', 'desc')
      .orderBy('issue.id', 'desc')
      .execute();
  }

  /** The issues that depend on `issueId` (it blocks them). */
  blockedBy(issueId: number, ownRepoId: number): Promise<Issue[]> {
    return this.db
      .selectFrom('issue_dependency')
      .innerJoin('issue', 'issue.id', 'issue_dependency.issue_id')
      .selectAll('issue')
      .where('issue_dependency.dependency_id', '=', issueId)
      .orderBy(sql`CASE WHEN issue.repo_id = ${ownRepoId} THEN 0 ELSE issue.repo_id END`)
      .orderBy('issue.created_unix', 'desc')
      .orderBy('issue.id', 'desc')
      .execute();
  }

  async exists(issueId: number, dependencyId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('issue_dependency')
      .select('id')
      .where('issue_id', '=', issueId)
      .where('dependency_id', '=', dependencyId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Would `issueId` depending on `dependencyId` close a cycle, of any length? It would when `issueId` is already
   * among what `dependencyId` depends on, directly or through others. One recursive query; `UNION` (not `ALL`)
   * visits each issue once, so an existing cycle cannot make it loop.
   */
  async wouldCycle(issueId: number, dependencyId: number): Promise<boolean> {
    const result = await sql<{ found: number }>`
      WITH RECURSIVE reach(id) AS (
        SELECT dependency_id FROM issue_dependency WHERE issue_id = ${dependencyId}
        UNION
        SELECT d.dependency_id FROM issue_dependency d INNER JOIN reach r ON d.issue_id = r.id
      )
      SELECT 1 AS found FROM reach WHERE id = ${issueId} LIMIT 1`.execute(this.db);
    return result.rows.length > 0;
  }

  /**
   * Serializes changes to the dependency graph until the transaction ends, so two concurrent additions cannot
   * each pass the cycle check and together close a cycle. SQLite already runs one writer at a time.
   */
  async lockGraph(): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres') return;
    // A transaction-scoped advisory lock under a fixed key (the bytes of "issdep").
    await sql`SELECT pg_advisory_xact_lock(${0x697373646570})`.execute(this.db);
  }

  /** Records the dependency; false when it already existed (a concurrent request won). */
  async insert(userId: number, issueId: number, dependencyId: number): Promise<boolean> {
    const now = nowUnix();
    const row = await this.db
      .insertInto('issue_dependency')
      .values({ user_id: userId, issue_id: issueId, dependency_id: dependencyId, created_unix: now, updated_unix: now })
      .onConflict((oc) => oc.columns(['issue_id', 'dependency_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Removes the dependency; false when there was none. */
  async delete(issueId: number, dependencyId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('issue_dependency').where('issue_id', '=', issueId).where('dependency_id', '=', dependencyId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
