import { Store } from '../storage/index.js';
import type { CommentsTables, NewComment } from './tables.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** Comments written by a migration, many rows at once (the issues domain recounts their `num_comments` after). */
export class CommentImportStore extends Store<CommentsTables> {
  /** Inserts the rows and answers their ids in the order of `rows` (ids grow in the order rows are inserted). */
  async insertMany(rows: readonly NewComment[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const inserted = await this.db.insertInto('comment').values(rows.slice(i, i + CHUNK)).returning('id').execute();
      ids.push(...inserted.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    return ids;
  }
}
