import { Store } from '../storage/store.js';
import type { NewReview, ReviewsTables } from './tables.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** Reviews written by a migration, with the times the remote gave them. */
export class ReviewImportStore extends Store<ReviewsTables> {
  /** Inserts the rows and answers their ids in the order of `rows` (ids grow in the order rows are inserted). */
  async insertMany(rows: readonly NewReview[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const inserted = await this.db.insertInto('review').values(rows.slice(i, i + CHUNK)).returning('id').execute();
      ids.push(...inserted.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    return ids;
  }
}
