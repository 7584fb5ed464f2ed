import { Store } from '../storage/store.js';
import { isStorableText } from '../storage/database.js';
import type { User, UsersTables } from '../users/tables.js';

/** The accounts a document `@mentions`, found in one query per render (the users store looks up one name at a time). */
export class MentionLookupStore extends Store<UsersTables> {
  async findByLowerNames(lowerNames: readonly string[]): Promise<User[]> {
    const names = lowerNames.filter(isStorableText);
    const found: User[] = [];
    // Chunked: SQLite and PostgreSQL both cap the number of bound parameters.
    for (let i = 0; i < names.length; i += 500) {
      found.push(...(await this.db.selectFrom('user').selectAll().where('lower_name', 'in', names.slice(i, i + 500)).execute()));
    }
    return found;
  }
}
