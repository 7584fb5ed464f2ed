import { Store } from '../storage/index.js';
import type { TwoFactor, TwoFactorTables } from './tables.js';

/** The `two_factor` table. */
export class TwoFactorStore extends Store<TwoFactorTables> {
  /** Compiled once: every password sign-in asks whether the account has two-factor authentication. */
  private readonly byUidQuery = this.precompiled<TwoFactor, 'uid'>('byUid', (db, param) =>
    db.selectFrom('two_factor').selectAll().where('uid', '=', param('uid')),
  );

  async byUid(uid: number): Promise<TwoFactor | undefined> {
    return (await this.byUidQuery({ uid }))[0];
  }

  /** Starts (or restarts) a pending enrolment; a confirmed one is left as it is (false). */
  async putPending(uid: number, secretEncrypted: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('two_factor')
      .values({ uid, secret_encrypted: secretEncrypted, is_confirmed: 0, created_unix: now, updated_unix: now })
      .onConflict((oc) =>
        oc
          .column('uid')
          .doUpdateSet({ secret_encrypted: secretEncrypted, scratch_salt: '', scratch_hash: '', last_used_counter: 0, created_unix: now, updated_unix: now })
          .where('two_factor.is_confirmed', '=', 0),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Puts a pending enrolment in force; false when it is no longer pending (confirmed concurrently, or removed). */
  async confirm(id: number, counter: number, scratch: { salt: string; hash: string }, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor')
      .set({ is_confirmed: 1, last_used_counter: counter, scratch_salt: scratch.salt, scratch_hash: scratch.hash, updated_unix: now })
      .where('id', '=', id)
      .where('is_confirmed', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records `counter` as used, only if it is later than the last one: of two requests with the same code, only
   * one can win this, so a code is accepted once even across servers.
   */
  async useCounter(id: number, counter: number): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor')
      .set({ last_used_counter: counter })
      .where('id', '=', id)
      .where('last_used_counter', '<', counter)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Replaces the scratch code, only if it is still `expectedHash` (a scratch code is used once). */
  async replaceScratch(id: number, expectedHash: string, scratch: { salt: string; hash: string }, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor')
      .set({ scratch_salt: scratch.salt, scratch_hash: scratch.hash, updated_unix: now })
      .where('id', '=', id)
      .where('scratch_hash', '=', expectedHash)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Which of `uids` have confirmed two-factor authentication. */
  async enrolledAmong(uids: readonly number[]): Promise<number[]> {
    if (uids.length === 0) return [];
    const rows = await this.db.selectFrom('two_factor').select('uid').where('is_confirmed', '=', 1).where('uid', 'in', uids).execute();
    return rows.map((r) => r.uid);
  }

  /** Stored secrets after `afterId`, by id (re-encryption walks them in batches). */
  secretsAfter(afterId: number, limit: number): Promise<Pick<TwoFactor, 'id' | 'uid' | 'secret_encrypted'>[]> {
    return this.db.selectFrom('two_factor').select(['id', 'uid', 'secret_encrypted']).where('id', '>', afterId).where('secret_encrypted', '!=', '').orderBy('id').limit(limit).execute();
  }

  async setSecret(id: number, secretEncrypted: string): Promise<void> {
    await this.db.updateTable('two_factor').set({ secret_encrypted: secretEncrypted }).where('id', '=', id).execute();
  }

  async deleteOf(uid: number): Promise<boolean> {
    const result = await this.db.deleteFrom('two_factor').where('uid', '=', uid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
