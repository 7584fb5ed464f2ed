import { Store } from '../storage/index.js';
import type { CronTables, CronTaskRow } from './tables.js';

/** What a claim of a task sets: who holds it until when, and (for a scheduled run) when it runs next. */
export interface CronClaim {
  owner: string;
  now: number;
  leaseUntil: number;
  /** A scheduled run moves `next_unix` on; a manual run leaves the schedule alone. */
  next?: number;
}

export class CronStore extends Store<CronTables> {
  all(): Promise<CronTaskRow[]> {
    return this.db.selectFrom('cron_task').selectAll().execute();
  }

  find(name: string): Promise<CronTaskRow | undefined> {
    return this.db.selectFrom('cron_task').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Adds the rows of tasks that have none yet (another process may be adding them too). */
  async ensure(names: readonly string[], now: number): Promise<void> {
    if (names.length === 0) return;
    await this.db
      .insertInto('cron_task')
      .values(
        names.map((name) => ({
          name,
          next_unix: 0,
          prev_unix: 0,
          exec_times: 0,
          schedule: '',
          lease_owner: '',
          lease_until_unix: 0,
          last_error: '',
          last_message: '',
          updated_unix: now,
        })),
      )
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  /**
   * Sets when a task runs next, for the schedule it was computed from, unless the stored row already follows that
   * schedule (a restart keeps the time it had, so a run due while the server was down happens once at start).
   */
  async plan(name: string, schedule: string, next: number, now: number, force = false): Promise<void> {
    let query = this.db.updateTable('cron_task').set({ schedule, next_unix: next, updated_unix: now }).where('name', '=', name);
    if (!force) query = query.where((eb) => eb.or([eb('schedule', '<>', schedule), eb('next_unix', '=', 0)]));
    await query.execute();
  }

  /**
   * Takes a task for one run, in one conditional UPDATE: only while nobody holds it under a live lease and, for a
   * scheduled run, only when it is due (so of several processes exactly one runs each due time).
   */
  async claim(name: string, claim: CronClaim): Promise<boolean> {
    let query = this.db
      .updateTable('cron_task')
      .set((eb) => ({
        lease_owner: claim.owner,
        lease_until_unix: claim.leaseUntil,
        prev_unix: claim.now,
        exec_times: eb('exec_times', '+', 1),
        updated_unix: claim.now,
        ...(claim.next !== undefined ? { next_unix: claim.next } : {}),
      }))
      .where('name', '=', name)
      .where('lease_until_unix', '<', claim.now);
    if (claim.next !== undefined) query = query.where('next_unix', '>', 0).where('next_unix', '<=', claim.now);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Extends the lease of a run this owner holds. */
  async renew(name: string, owner: string, leaseUntil: number): Promise<void> {
    await this.db.updateTable('cron_task').set({ lease_until_unix: leaseUntil }).where('name', '=', name).where('lease_owner', '=', owner).execute();
  }

  /** Records a run's outcome and lets the task go (only if this owner still holds it). */
  async release(name: string, owner: string, outcome: { error: string; message: string; now: number }): Promise<void> {
    await this.db
      .updateTable('cron_task')
      .set({ lease_owner: '', lease_until_unix: 0, last_error: outcome.error, last_message: outcome.message, updated_unix: outcome.now })
      .where('name', '=', name)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
