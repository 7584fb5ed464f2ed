import { Store } from '../storage/store.js';
import { isStorableText } from '../storage/database.js';
import type { UsersTables } from '../users/tables.js';

/**
 * The accounts behind commit emails, for a page of branches in one or two queries (the users store looks up one
 * address at a time): activated addresses, and the no-reply addresses (`<name>@noreply.<domain>`) commits carry.
 */
export class CommitEmailLookupStore extends Store<UsersTables> {
  async usernamesByEmail(emails: readonly string[], noReplyDomain: string): Promise<Map<string, string>> {
    const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter((e) => e !== '' && isStorableText(e)))];
    const found = new Map<string, string>();
    if (lower.length === 0) return found;
    const suffix = `@noreply.${noReplyDomain.toLowerCase()}`;
    const noReplyNames = new Map(lower.filter((e) => e.endsWith(suffix)).map((e) => [e.slice(0, -suffix.length), e]));
    for (let i = 0; i < lower.length; i += 500) {
      const rows = await this.db
        .selectFrom('email_address')
        .innerJoin('user', 'user.id', 'email_address.uid')
        .select(['email_address.lower_email', 'user.name'])
        .where('email_address.lower_email', 'in', lower.slice(i, i + 500))
        .where('email_address.is_activated', '=', 1)
        .execute();
      for (const row of rows) found.set(row.lower_email, row.name);
    }
    const names = [...noReplyNames.keys()];
    for (let i = 0; i < names.length; i += 500) {
      const rows = await this.db.selectFrom('user').select(['lower_name', 'name']).where('lower_name', 'in', names.slice(i, i + 500)).execute();
      for (const row of rows) {
        const email = noReplyNames.get(row.lower_name);
        if (email && !found.has(email)) found.set(email, row.name);
      }
    }
    return found;
  }
}
