import type { StoreScope } from '../storage/index.js';
import { ReactionsStore } from './store.js';
import type { NewReaction } from './tables.js';

/** What other domains do with reactions; the reactions domain's store stays private. */
export class ReactionsPort {
  constructor(private readonly scope: StoreScope) {}

  /** Removes every reaction on a comment, as the comment is deleted. */
  deleteOfComment(commentId: number): Promise<void> {
    return this.scope.store(ReactionsStore).deleteOfComment(commentId);
  }

  /** Inserts imported reactions many at a time; one already there (a re-run of the migration) is kept as it is. */
  insertImported(rows: readonly NewReaction[]): Promise<void> {
    return this.scope.store(ReactionsStore).insertMany(rows);
  }
}
