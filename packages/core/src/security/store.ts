import { sql } from 'kysely';
import { Store } from '../storage/store.js';
import type { SecurityTables, SignInFailure } from './tables.js';

/** The `sign_in_failure` table. */
export class SecurityStore extends Store<SecurityTables> {
  /** Compiled once: every password check reads its counters (account and address) in this one indexed read. */
  private readonly byKeys = this.precompiled<SignInFailure, 'first' | 'second'>('byKeys', (db, param) =>
    db.selectFrom('sign_in_failure').selectAll().where('key', 'in', [param('first'), param('second')]),
  );

  /** The counters stored under these keys (one or two). */
  failuresOf(keys: readonly string[]): Promise<SignInFailure[]> {
    return this.byKeys({ first: keys[0], second: keys[1] ?? keys[0] });
  }

  /**
   * Counts one failure under each key, in one statement so concurrent servers cannot lose a count: a counter
   * whose window has ended starts a new window at `now`.
   */
  async addFailure(keys: readonly string[], now: number, windowSeconds: number): Promise<void> {
    if (keys.length === 0) return;
    const ended = sql<boolean>`sign_in_failure.window_start_unix <= ${now - windowSeconds}`;
    await this.db
      .insertInto('sign_in_failure')
      .values(keys.map((key) => ({ key, window_start_unix: now, failures: 1 })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql<number>`CASE WHEN ${ended} THEN 1 ELSE sign_in_failure.failures + 1 END`,
          window_start_unix: sql<number>`CASE WHEN ${ended} THEN ${now} ELSE sign_in_failure.window_start_unix END`,
        }),
      )
      .execute();
  }

  /** Deletes counters whose window began at or before `before` (they count for nothing any more). */
  async deleteStarted(before: number): Promise<number> {
    const result = await this.db.deleteFrom('sign_in_failure').where('window_start_unix', '<=', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failure').where('key', '=', key).execute();
  }
}
