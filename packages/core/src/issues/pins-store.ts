import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import type { Issue, IssuesTables } from './tables.js';

/** Pinning: `issue.pin_order` numbers a repository's pinned issues (and, apart, its pinned pull requests) from 1. */
export class IssuePinsStore extends Store<IssuesTables> {
  /**
   * Holds the repository's issue index row until the transaction ends (PostgreSQL; SQLite has one writer at a time),
   * so two pin changes in one repository run one after the other and never hand out one position twice.
   */
  async lockRepo(repoId: number): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres' || !this.scope.inTransaction) return;
    await this.db.selectFrom('issue_index').select('group_id').where('group_id', '=', repoId).forUpdate().execute();
  }

  /** The highest position taken among the repository's issues or pull requests (0: none pinned). */
  async maxPinOrder(repoId: number, isPull: number): Promise<number> {
    const row = await this.db
      .selectFrom('issue')
      .select((eb) => eb.fn.max<number | null>('pin_order').as('n'))
      .where('repo_id', '=', repoId)
      .where('is_pull', '=', isPull)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** How many of the repository's issues or pull requests are pinned. */
  async countPinned(repoId: number, isPull: number): Promise<number> {
    const row = await this.db
      .selectFrom('issue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('repo_id', '=', repoId)
      .where('is_pull', '=', isPull)
      .where('pin_order', '>', 0)
      .executeTakeFirst();
    return Store.count(row);
  }

  /** The issue's position now (0: not pinned), read inside the transaction that changes it. */
  async pinOrderOf(id: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('issue').select('pin_order').where('id', '=', id).executeTakeFirst();
    return row?.pin_order;
  }

  async setPinOrder(id: number, pinOrder: number): Promise<void> {
    await this.db.updateTable('issue').set({ pin_order: pinOrder }).where('id', '=', id).execute();
  }

  /** Moves every pin after `from` (exclusive) `delta` places: -1 closes the gap a pin leaves. */
  async shiftAfter(repoId: number, isPull: number, from: number, delta: number): Promise<void> {
    await this.db
      .updateTable('issue')
      .set({ pin_order: sql`pin_order + ${delta}` })
      .where('repo_id', '=', repoId)
      .where('is_pull', '=', isPull)
      .where('pin_order', '>', from)
      .execute();
  }

  /** The repository's pinned issues or pull requests, in their order. */
  pinned(repoId: number, isPull: number): Promise<Issue[]> {
    return this.db
      .selectFrom('issue')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('is_pull', '=', isPull)
      .where('pin_order', '>', 0)
      .orderBy('pin_order')
      .orderBy('id')
      .execute();
  }
}
