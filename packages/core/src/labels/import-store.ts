import { Store } from '../storage/index.js';
import type { Label, LabelsTables, NewLabel } from './tables.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** Labels written by a migration: many rows at once, as the remote listed them. */
export class LabelImportStore extends Store<LabelsTables> {
  async insertMany(rows: readonly NewLabel[]): Promise<Label[]> {
    const out: Label[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      out.push(...(await this.db.insertInto('label').values(rows.slice(i, i + CHUNK)).returningAll().execute()));
    }
    return out;
  }
}
