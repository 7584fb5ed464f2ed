import { Store } from '../storage/index.js';
import type { Issue, IssuesTables } from './tables.js';

/** The lock flag of `issue`. */
export class IssueLockStore extends Store<IssuesTables> {
  /** Sets `is_locked` when it is not already so; undefined when it was (the caller answers 409). */
  setLockedIfNot(id: number, locked: boolean, nowUnix: number): Promise<Issue | undefined> {
    return this.db
      .updateTable('issue')
      .set({ is_locked: locked ? 1 : 0, updated_unix: nowUnix })
      .where('id', '=', id)
      .where('is_locked', '=', locked ? 0 : 1)
      .returningAll()
      .executeTakeFirst();
  }
}
