import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { SecurityTables, SignInFailure } from './tables.js';

/** A counter to take a slot from, and how many slots its window has. */
export interface AttemptSlot {
  key: string;
  limit: number;
}

/** The `sign_in_failure` and `sign_in_known` tables. */
export class SecurityStore extends Store<SecurityTables> {
  /** Compiled once: every password check asks whether its account knows its address. */
  private readonly knownSince = this.precompiled<{ signed_in_unix: number }, 'key' | 'since'>('knownSince', (db, param) =>
    db.selectFrom('sign_in_known').select('signed_in_unix').where('key', '=', param('key')).where('signed_in_unix', '>', param('since')),
  );

  /**
   * Takes one slot under each key, in one statement: a counter below its limit (or whose window has ended, which
   * starts a new window at `now`) counts one more, one at its limit is left alone. The database decides, row
   * by row under its lock, so concurrent attempts in any number of processes never take more slots than the limit.
   * Returns the window start of each key whose slot was taken; a key missing from the answer was full.
   */
  async reserve(slots: readonly AttemptSlot[], now: number, windowSeconds: number): Promise<Map<string, number>> {
    const taken = new Map<string, number>();
    if (slots.length === 0) return taken;
    // One order for every statement, so two attempts on PostgreSQL lock shared rows in the same order.
    const sorted = [...slots].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const ended = sql<boolean>`sign_in_failure.window_start_unix <= ${now - windowSeconds}`;
    const limit = sql<number>`CASE sign_in_failure.key ${sql.join(
      sorted.map((s) => sql`WHEN ${s.key} THEN CAST(${s.limit} AS integer)`),
      sql` `,
    )} END`;
    const rows = await this.db
      .insertInto('sign_in_failure')
      .values(sorted.map(({ key }) => ({ key, window_start_unix: now, failures: 1 })))
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            failures: sql<number>`CASE WHEN ${ended} THEN 1 ELSE sign_in_failure.failures + 1 END`,
            window_start_unix: sql<number>`CASE WHEN ${ended} THEN ${now} ELSE sign_in_failure.window_start_unix END`,
          })
          .where(sql<boolean>`(${ended} OR sign_in_failure.failures < ${limit})`),
      )
      .returning(['key', 'window_start_unix'])
      .execute();
    for (const row of rows) taken.set(row.key, Number(row.window_start_unix));
    return taken;
  }

  /**
   * Gives back a slot `reserve` took (an attempt refused by another counter, or one that succeeded). Only within
   * the window it was taken in: a counter that started afresh since holds none of it. One row per statement.
   */
  async release(key: string, windowStart: number): Promise<void> {
    await this.db
      .updateTable('sign_in_failure')
      .set({ failures: sql<number>`failures - 1` })
      .where('key', '=', key)
      .where('window_start_unix', '=', windowStart)
      .where('failures', '>', 0)
      .execute();
  }

  /** When the windows of these counters began (to say how long a full one stays full). */
  async windowStarts(keys: readonly string[]): Promise<Map<string, number>> {
    const starts = new Map<string, number>();
    if (keys.length === 0) return starts;
    const rows = await this.db.selectFrom('sign_in_failure').select(['key', 'window_start_unix']).where('key', 'in', [...keys]).execute();
    for (const row of rows) starts.set(row.key, Number(row.window_start_unix));
    return starts;
  }

  /**
   * Deletes counters whose window began at or before `before` (they count for nothing any more). On PostgreSQL a
   * row an attempt holds is skipped, not waited for: waiting while that attempt waits for a row this statement
   * already holds would be a deadlock. Left rows go next time.
   */
  async deleteStarted(before: number): Promise<number> {
    let query = this.db.deleteFrom('sign_in_failure').where('window_start_unix', '<=', before);
    if (this.scope.storage.dialect === 'postgres') {
      query = this.db
        .deleteFrom('sign_in_failure')
        .where('key', 'in', (db) => db.selectFrom('sign_in_failure').select('key').where('window_start_unix', '<=', before).forUpdate().skipLocked());
    }
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Every counter (for tests and inspection): key, window start and failures. */
  counters(): Promise<SignInFailure[]> {
    return this.db.selectFrom('sign_in_failure').selectAll().orderBy('key').execute();
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failure').where('key', '=', key).execute();
  }

  /** When the account of `key` last signed in from its network, if that was after `since`. */
  async knownAfter(key: string, since: number): Promise<number | undefined> {
    const row = (await this.knownSince({ key, since }))[0];
    return row && Number(row.signed_in_unix);
  }

  async recordKnown(key: string, now: number): Promise<void> {
    await this.db
      .insertInto('sign_in_known')
      .values({ key, signed_in_unix: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ signed_in_unix: now }))
      .execute();
  }

  /** Forgets networks whose last sign-in was at or before `before`. */
  async forgetKnown(before: number): Promise<number> {
    const result = await this.db.deleteFrom('sign_in_known').where('signed_in_unix', '<=', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
