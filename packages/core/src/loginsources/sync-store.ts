import { Store } from '../storage/index.js';
import type { User, UsersTables } from '../users/index.js';

/** The accounts bound to a login source, for its synchronization. */
export class SourceAccountsStore extends Store<UsersTables> {
  accountsOf(sourceId: number): Promise<User[]> {
    return this.db.selectFrom('user').selectAll().where('login_source', '=', sourceId).orderBy('id').execute();
  }
}
