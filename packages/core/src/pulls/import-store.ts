import { Store } from '../storage/index.js';
import type { NewPullRequest, PullRequest, PullsTables } from './tables.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 100;

/** Pull requests written by a migration: a page of rows at once. */
export class PullImportStore extends Store<PullsTables> {
  async insertMany(rows: readonly NewPullRequest[]): Promise<PullRequest[]> {
    const out: PullRequest[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      out.push(...(await this.db.insertInto('pull_request').values(rows.slice(i, i + CHUNK)).returningAll().execute()));
    }
    return out;
  }
}
