import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { ReposTables } from './tables.js';

/** The repository counters other domains keep, by the API names of what they count. */
export interface RepoCounterDeltas {
  /** `num_stars` (`stars_count`). */
  stars?: number;
  /** `num_watches` (`watchers_count`). */
  watches?: number;
}

const COLUMNS = { stars: 'num_stars', watches: 'num_watches' } as const;

/** Ids per statement: SQLite and PostgreSQL both cap the number of bound parameters. */
const CHUNK = 500;

/** Counters of `repository` rows that count rows of other domains, moved inside the transaction that changes those. */
export class RepoCountersStore extends Store<ReposTables> {
  /** Moves the counters of every repository in `ids` (distinct) by the same deltas. */
  async adjust(ids: readonly number[], deltas: RepoCounterDeltas): Promise<void> {
    const set: Record<string, unknown> = {};
    for (const key of Object.keys(COLUMNS) as (keyof RepoCounterDeltas)[]) {
      const delta = deltas[key] ?? 0;
      if (delta !== 0) set[COLUMNS[key]] = sql`${sql.ref(COLUMNS[key])} + ${delta}`;
    }
    if (Object.keys(set).length === 0) return;
    for (let i = 0; i < ids.length; i += CHUNK) {
      await this.db.updateTable('repository').set(set).where('id', 'in', ids.slice(i, i + CHUNK)).execute();
    }
  }

  /**
   * Takes the repository row's write lock until the transaction ends (PostgreSQL, `SELECT … FOR UPDATE`; SQLite runs
   * one writer at a time) before the issues domain counts. A count taken after the lock sees what every transaction
   * that counted before it committed, so the last to write stores the truth; a count taken without it could miss
   * another transaction's change and then overwrite that transaction's (right) count.
   */
  async lock(id: number): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres' || !this.scope.inTransaction) return;
    await this.db.selectFrom('repository').select('id').where('id', '=', id).forUpdate().execute();
  }

  /** Sets a repository's issue and pull request counters to counts the issues domain just took (after `lock`). */
  async setIssueCounts(id: number, counts: { issues: number; closedIssues: number; pulls: number; closedPulls: number }): Promise<void> {
    await this.db
      .updateTable('repository')
      .set({ num_issues: counts.issues, num_closed_issues: counts.closedIssues, num_pulls: counts.pulls, num_closed_pulls: counts.closedPulls })
      .where('id', '=', id)
      .execute();
  }
}
