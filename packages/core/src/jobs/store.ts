import { sql, type Insertable } from 'kysely';
import { Store } from '../storage/index.js';
import type { JobRow, JobsTables, JobTable } from './tables.js';

/** What a claim sets on the row it takes. */
export interface ClaimLease {
  owner: string;
  now: number;
  leaseUntil: number;
}

export class JobsStore extends Store<JobsTables> {
  private readonly byId = this.precompiled<JobRow, 'id'>('byId', (db, param) => db.selectFrom('job').selectAll().where('id', '=', param('id')));

  async find(id: number): Promise<JobRow | undefined> {
    return (await this.byId({ id }))[0];
  }

  findMany(ids: number[]): Promise<JobRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('job').selectAll().where('id', 'in', ids).execute();
  }

  /** The queued (not yet running) job of a kind and key, if any. */
  findQueued(kind: string, key: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom('job')
      .selectAll()
      .where('kind', '=', kind)
      .where('key', '=', key)
      .where('status', '=', 'queued')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Serializes enqueues and claims of one kind and key until the transaction ends (PostgreSQL; SQLite runs one
   * writer at a time), so a check-then-write on that key cannot interleave with another process's.
   */
  async lockKey(kind: string, key: string): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres') return;
    // Two-key advisory lock: a fixed class (the bytes of "jobk") and a hash of kind and key.
    await sql`SELECT pg_advisory_xact_lock(${0x6a6f626b}, hashtext(${`${kind}\n${key}`}))`.execute(this.db);
  }

  /** Payloads of one kind's jobs after `afterId`, by id, whatever their status (`JobsService.rewritePayloads`). */
  payloadsAfter(kind: string, afterId: number, limit: number): Promise<Pick<JobRow, 'id' | 'payload'>[]> {
    return this.db.selectFrom('job').select(['id', 'payload']).where('kind', '=', kind).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  async setPayload(id: number, payload: string): Promise<void> {
    await this.db.updateTable('job').set({ payload }).where('id', '=', id).execute();
  }

  insert(row: Insertable<JobTable>): Promise<JobRow> {
    return this.db.insertInto('job').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Jobs that may be claimed now, oldest due first: queued and due, or running under a lease that expired (its
   * process died), of the kinds this process has handlers for. `exclude`: ones this process is already running.
   */
  claimable(now: number, kinds: string[], limit: number, exclude: number[]): Promise<JobRow[]> {
    let query = this.db
      .selectFrom('job')
      .selectAll()
      .where('kind', 'in', kinds)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_after_unix', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('lease_until_unix', '<', now)]),
        ]),
      );
    if (exclude.length > 0) query = query.where('id', 'not in', exclude);
    return query.orderBy('run_after_unix').orderBy('id').limit(limit).execute();
  }

  /** When the next queued job falls due (unix seconds), if any is queued. */
  async nextDue(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('job')
      .select((eb) => eb.fn.min('run_after_unix').as('next'))
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return row?.next == null ? undefined : Number(row.next);
  }

  /**
   * Takes a job in one conditional UPDATE: only if it is still queued (and due) or its lease expired, and no other
   * job of its kind and key runs under a live lease. Returns the claimed row, or undefined when someone else won.
   */
  async claim(id: number, lease: ClaimLease): Promise<JobRow | undefined> {
    return this.db
      .updateTable('job')
      .set((eb) => ({
        status: 'running',
        lease_owner: lease.owner,
        lease_until_unix: lease.leaseUntil,
        attempts: eb('attempts', '+', 1),
        updated_unix: lease.now,
      }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_after_unix', '<=', lease.now)]),
          eb.and([eb('status', '=', 'running'), eb('lease_until_unix', '<', lease.now)]),
        ]),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('job as other')
              .select('other.id')
              .whereRef('other.kind', '=', 'job.kind')
              .whereRef('other.key', '=', 'job.key')
              .where('other.key', '<>', '')
              .whereRef('other.id', '<>', 'job.id')
              .where('other.status', '=', 'running')
              .where('other.lease_until_unix', '>=', lease.now),
          ),
        ),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /** Extends the lease of a job this owner still holds; false when it no longer does. */
  async renew(id: number, owner: string, leaseUntil: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('job')
      .set({ lease_until_unix: leaseUntil, updated_unix: now })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async progress(id: number, owner: string, done: number, total: number, message: string, now: number): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ progress_done: done, progress_total: total, progress_message: message, updated_unix: now })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .execute();
  }

  /** Ends an attempt of a job this owner holds: done, failed, or queued again (retry, or given back). */
  async finish(
    id: number,
    owner: string,
    changes: { status: 'done' | 'failed' | 'queued'; error: string; runAfter?: number; attemptsBack?: boolean; now: number },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('job')
      .set((eb) => ({
        status: changes.status,
        error: changes.error,
        lease_owner: '',
        lease_until_unix: 0,
        updated_unix: changes.now,
        finished_unix: changes.status === 'queued' ? 0 : changes.now,
        ...(changes.runAfter !== undefined ? { run_after_unix: changes.runAfter } : {}),
        ...(changes.attemptsBack ? { attempts: eb('attempts', '-', 1) } : {}),
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Finished jobs (done or failed) that ended before `before`. */
  async pruneFinished(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('job')
      .where('status', 'in', ['done', 'failed'])
      .where('finished_unix', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
