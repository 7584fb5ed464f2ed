import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { Schema } from '../storage/index.js';
import type { CommentsTables, NewComment } from './tables.js';
import { COMMENT_TYPES } from './types.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** Comments written by a migration: many rows at once, then the issues' comment counts in one statement. */
export class CommentImportStore extends Store<CommentsTables & Pick<Schema, 'issue'>> {
  /** Inserts the rows and answers their ids in the order of `rows` (ids grow in the order rows are inserted). */
  async insertMany(rows: readonly NewComment[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const inserted = await this.db.insertInto('comment').values(rows.slice(i, i + CHUNK)).returning('id').execute();
      ids.push(...inserted.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    return ids;
  }

  /** Sets `num_comments` of every issue of the repository to its count of plain comments. */
  async recountOfRepo(repoId: number): Promise<void> {
    await this.db
      .updateTable('issue')
      .set({
        num_comments: sql<number>`(select count(*) from comment where comment.issue_id = issue.id and comment.type = ${COMMENT_TYPES.comment})`,
      })
      .where('repo_id', '=', repoId)
      .execute();
  }
}
