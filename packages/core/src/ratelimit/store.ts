import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { RateLimitTables } from './tables.js';

/** What one claim got: the window its counter is in, every process's claims in it, and this claim's share. */
export interface RateLimitClaim {
  windowStart: number;
  claimed: number;
  granted: number;
}

/** The `rate_limit` table. */
export class RateLimitStore extends Store<RateLimitTables> {
  /**
   * One claim, compiled once (it runs once per slice of calls, so on the request path): a new counter, or one whose
   * window ended (started afresh at `now`), gives `first` = `min(want, limit)`; a current one gives what is left of
   * its limit, at most `want`, possibly nothing.
   */
  private readonly claimRow = this.precompiled<{ window_start_unix: number; claimed: number; granted: number }, 'key' | 'now' | 'endedBy' | 'first' | 'want' | 'limit'>(
    'claim',
    (db, param) => {
      const ended = sql<boolean>`rate_limit.window_start_unix <= ${param('endedBy')}`;
      const room = sql<number>`(CAST(${param('limit')} AS integer) - rate_limit.claimed)`;
      const grant = sql<number>`CASE WHEN ${room} >= CAST(${param('want')} AS integer) THEN CAST(${param('want')} AS integer) WHEN ${room} > 0 THEN ${room} ELSE 0 END`;
      const first = sql<number>`CAST(${param('first')} AS integer)`;
      const now = sql<number>`CAST(${param('now')} AS bigint)`;
      return db
        .insertInto('rate_limit')
        .values({ key: param('key'), window_start_unix: now, claimed: first, granted: first })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            window_start_unix: sql<number>`CASE WHEN ${ended} THEN ${now} ELSE rate_limit.window_start_unix END`,
            claimed: sql<number>`CASE WHEN ${ended} THEN ${first} ELSE rate_limit.claimed + ${grant} END`,
            granted: sql<number>`CASE WHEN ${ended} THEN ${first} ELSE ${grant} END`,
          }),
        )
        .returning(['window_start_unix', 'claimed', 'granted']);
    },
  );

  /**
   * Claims up to `want` calls of `key`'s budget of `limit` per `windowSeconds`, in one statement (`claimRow`). The
   * database decides under its row lock, so any number of processes claiming at once never claim more than the
   * limit together. Returns the row as this claim left it.
   */
  async claim(key: string, want: number, limit: number, now: number, windowSeconds: number): Promise<RateLimitClaim> {
    const rows = await this.claimRow({ key, now, endedBy: now - windowSeconds, first: Math.min(want, limit), want, limit });
    const row = rows[0]!;
    return { windowStart: Number(row.window_start_unix), claimed: Number(row.claimed), granted: Number(row.granted) };
  }

  /**
   * Deletes the counters of `resource` (keys `resource:…`) whose window began at or before `before`. On PostgreSQL a
   * row a claim holds is skipped, not waited for; it goes next time.
   */
  async deleteStarted(resource: string, before: number): Promise<number> {
    const pattern = `${resource}:%`;
    let query = this.db.deleteFrom('rate_limit').where('window_start_unix', '<=', before).where('key', 'like', pattern);
    if (this.scope.storage.dialect === 'postgres') {
      query = this.db
        .deleteFrom('rate_limit')
        .where('key', 'in', (db) =>
          db.selectFrom('rate_limit').select('key').where('window_start_unix', '<=', before).where('key', 'like', pattern).forUpdate().skipLocked(),
        );
    }
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Every counter's row (for tests and inspection). */
  rows(): Promise<{ key: string; window_start_unix: number; claimed: number; granted: number }[]> {
    return this.db.selectFrom('rate_limit').selectAll().orderBy('key').execute();
  }
}
