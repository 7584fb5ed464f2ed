import { Store } from '../storage/store.js';
import type { NewReaction, ReactionsTables } from './tables.js';

/** Rows per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 200;

/** Reactions written by a migration: many rows at once; one already there (a re-run) is left as it is. */
export class ReactionImportStore extends Store<ReactionsTables> {
  async insertMany(rows: readonly NewReaction[]): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      await this.db.insertInto('reaction').values(rows.slice(i, i + CHUNK)).onConflict((oc) => oc.doNothing()).execute();
    }
  }
}
