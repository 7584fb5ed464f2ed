import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import { ActionStatus } from './status.js';
import type { ActionSchedule, ActionScheduleSpec, ActionScheduleTable, ActionsTables } from './tables.js';

export type NewSchedule = Omit<ActionScheduleTable, 'id'>;

/** The scheduled workflows, their specs, the suspension marker; and which runs they started. */
export class SchedulesStore extends Store<ActionsTables> {
  /** Removes a repository's plans (every repository's when `repoId` is undefined). */
  async deleteOfRepo(repoId: number | undefined): Promise<void> {
    let specs = this.db.deleteFrom('action_schedule_spec');
    let schedules = this.db.deleteFrom('action_schedule');
    if (repoId !== undefined) {
      specs = specs.where('repo_id', '=', repoId);
      schedules = schedules.where('repo_id', '=', repoId);
    }
    await specs.execute();
    await schedules.execute();
  }

  async insert(schedule: NewSchedule, specs: readonly { spec: string; next: number }[]): Promise<ActionSchedule> {
    const row = await this.db.insertInto('action_schedule').values(schedule).returningAll().executeTakeFirstOrThrow();
    if (specs.length) {
      await this.db
        .insertInto('action_schedule_spec')
        .values(specs.map((spec) => ({ repo_id: schedule.repo_id, schedule_id: row.id, spec: spec.spec, next: spec.next, prev: 0 })))
        .execute();
    }
    return row;
  }

  ofRepo(repoId: number): Promise<ActionSchedule[]> {
    return this.db.selectFrom('action_schedule').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();
  }

  specsOfRepo(repoId: number): Promise<ActionScheduleSpec[]> {
    return this.db.selectFrom('action_schedule_spec').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();
  }

  byId(id: number): Promise<ActionSchedule | undefined> {
    return this.db.selectFrom('action_schedule').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Specs due at `now`, oldest first. */
  due(now: number, limit: number): Promise<ActionScheduleSpec[]> {
    return this.db.selectFrom('action_schedule_spec').selectAll().where('next', '<=', now).orderBy('next').orderBy('id').limit(limit).execute();
  }

  /** Moves a spec past the time it was due, only if no other process did (true: this caller runs it). */
  async advance(spec: ActionScheduleSpec, next: number): Promise<boolean> {
    const result = await this.db
      .updateTable('action_schedule_spec')
      .set({ next, prev: spec.next })
      .where('id', '=', spec.id)
      .where('next', '=', spec.next)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Runs a schedule started that are not finished, of a repository or of all. */
  async unfinishedScheduledRuns(repoId: number | undefined): Promise<number[]> {
    let query = this.db
      .selectFrom('action_run')
      .select('id')
      .where('event', '=', sql.lit('schedule'))
      .where('status', 'in', [ActionStatus.Waiting, ActionStatus.Running, ActionStatus.Blocked]);
    if (repoId !== undefined) query = query.where('repo_id', '=', repoId);
    return (await query.execute()).map((row) => row.id);
  }

  async isSuspended(): Promise<boolean> {
    return (await this.db.selectFrom('action_schedules_suspended').select('id').where('id', '=', 1).executeTakeFirst()) !== undefined;
  }

  async setSuspended(suspended: boolean, now: number): Promise<void> {
    if (suspended) await this.db.insertInto('action_schedules_suspended').values({ id: 1, since: now }).onConflict((oc) => oc.column('id').doNothing()).execute();
    else await this.db.deleteFrom('action_schedules_suspended').where('id', '=', 1).execute();
  }
}
