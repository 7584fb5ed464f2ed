import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { UsersTables } from './tables.js';

/** The account counters other domains keep (follows, stars), by the API names of what they count. */
export interface UserCounterDeltas {
  /** `num_followers` (`followers_count`). */
  followers?: number;
  /** `num_following` (`following_count`). */
  following?: number;
  /** `num_stars` (`starred_repos_count`). */
  stars?: number;
}

const COLUMNS = { followers: 'num_followers', following: 'num_following', stars: 'num_stars' } as const;

/** Ids per statement: SQLite and PostgreSQL both cap the number of bound parameters. */
const CHUNK = 500;

/**
 * The counters of `user` rows that count other domains' rows. Callers move them inside the transaction that
 * changes what they count, so they stay true.
 */
export class UserCountersStore extends Store<UsersTables> {
  /** Moves the counters of every account in `ids` (distinct) by the same deltas. */
  async adjust(ids: readonly number[], deltas: UserCounterDeltas): Promise<void> {
    const set: Record<string, unknown> = {};
    for (const key of Object.keys(COLUMNS) as (keyof UserCounterDeltas)[]) {
      const delta = deltas[key] ?? 0;
      if (delta !== 0) set[COLUMNS[key]] = sql`${sql.ref(COLUMNS[key])} + ${delta}`;
    }
    if (Object.keys(set).length === 0) return;
    for (let i = 0; i < ids.length; i += CHUNK) {
      await this.db.updateTable('user').set(set).where('id', 'in', ids.slice(i, i + CHUNK)).execute();
    }
  }

  /**
   * Locks the rows of two accounts, lower id first, until the transaction ends (PostgreSQL; SQLite has one writer
   * at a time anyway), so that two changes to one pair of accounts (a follow and a block) run one after the other.
   */
  async lockPair(a: number, b: number): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres' || !this.scope.inTransaction) return;
    await this.db
      .selectFrom('user')
      .select('id')
      .where('id', 'in', [a, b])
      .orderBy('id')
      .forUpdate()
      .execute();
  }
}
