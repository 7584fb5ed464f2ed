import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { Schema } from '../storage/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import type { Issue, IssuesTables, NewIssue } from './tables.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/**
 * Issues and pull requests written by a migration: a page of rows at once with the numbers the remote gave them,
 * their labels and assignees, and the repository's index sequence moved past the highest number afterwards.
 */
export class IssueImportStore extends Store<IssuesTables & Pick<Schema, 'comment'>> {
  async insertMany(rows: readonly NewIssue[]): Promise<Issue[]> {
    const out: Issue[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      out.push(...(await this.db.insertInto('issue').values(rows.slice(i, i + CHUNK)).returningAll().execute()));
    }
    return out;
  }

  async addLabels(pairs: readonly { issue_id: number; label_id: number }[]): Promise<void> {
    for (let i = 0; i < pairs.length; i += CHUNK) {
      await this.db
        .insertInto('issue_label')
        .values(pairs.slice(i, i + CHUNK))
        .onConflict((oc) => oc.columns(['issue_id', 'label_id']).doNothing())
        .execute();
    }
  }

  async addAssignees(pairs: readonly { issue_id: number; assignee_id: number }[]): Promise<void> {
    for (let i = 0; i < pairs.length; i += CHUNK) await this.db.insertInto('issue_assignees').values(pairs.slice(i, i + CHUNK)).execute();
  }

  /** Numbers of the repository's issues among these (a re-run finds what an earlier attempt wrote). */
  async existingIndexes(repoId: number, indexes: readonly number[]): Promise<Set<number>> {
    if (indexes.length === 0) return new Set();
    const rows = await this.db.selectFrom('issue').select('index').where('repo_id', '=', repoId).where('index', 'in', [...new Set(indexes)]).execute();
    return new Set(rows.map((r) => Number(r.index)));
  }

  /** Moves the repository's index sequence to its highest issue number, so new issues continue after it. */
  async continueIndexAfterHighest(repoId: number): Promise<void> {
    const row = await this.db.selectFrom('issue').select((eb) => eb.fn.max<number>('index').as('n')).where('repo_id', '=', repoId).executeTakeFirst();
    const highest = Number(row?.n ?? 0);
    await this.db
      .insertInto('issue_index')
      .values({ group_id: repoId, max_index: highest })
      .onConflict((oc) => oc.column('group_id').doUpdateSet({ max_index: sql`case when issue_index.max_index > ${highest} then issue_index.max_index else ${highest} end` }))
      .execute();
  }

  /** Sets `num_comments` of every issue of the repository to its count of plain comments (read from the timeline's table). */
  async recountComments(repoId: number): Promise<void> {
    await this.db
      .updateTable('issue')
      .set({
        num_comments: sql<number>`(select count(*) from comment where comment.issue_id = issue.id and comment.type = ${COMMENT_TYPES.comment})`,
      })
      .where('repo_id', '=', repoId)
      .execute();
  }
}
