import { Store } from '../storage/store.js';
import type { IssuesTables } from './tables.js';

/** Setting an issue's updated time to a given moment (Forgejo's `SetIssueUpdateDate`, used by migrations). */
export class IssueUpdateDateStore extends Store<IssuesTables> {
  async setUpdated(id: number, unix: number): Promise<void> {
    await this.db.updateTable('issue').set({ updated_unix: unix }).where('id', '=', id).execute();
  }
}
