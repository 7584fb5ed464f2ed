import type { Insertable } from 'kysely';
import { Store } from '../storage/store.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { KeysTables, PublicKey, PublicKeyTable } from './tables.js';

/** The `public_key` table. */
export class KeysStore extends Store<KeysTables> {
  /** Compiled once: every SSH connection looks its key up by content while authenticating. */
  private readonly byContentQuery = this.precompiled<PublicKey, 'content'>('byContent', (db, param) =>
    db.selectFrom('public_key').selectAll().where('content', '=', param('content')),
  );
  private readonly byIdQuery = this.precompiled<PublicKey, 'id'>('byId', (db, param) =>
    db.selectFrom('public_key').selectAll().where('id', '=', param('id')),
  );

  async byContent(content: string): Promise<PublicKey | undefined> {
    return (await this.byContentQuery({ content }))[0];
  }

  async byId(id: number): Promise<PublicKey | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  byFingerprint(fingerprint: string): Promise<PublicKey | undefined> {
    return this.db.selectFrom('public_key').selectAll().where('fingerprint', '=', fingerprint).executeTakeFirst();
  }

  async ownerHasName(ownerId: number, name: string): Promise<boolean> {
    const row = await this.db.selectFrom('public_key').select('id').where('owner_id', '=', ownerId).where('name', '=', name).executeTakeFirst();
    return row !== undefined;
  }

  insert(row: Insertable<PublicKeyTable>): Promise<PublicKey> {
    return this.db.insertInto('public_key').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** An owner's keys of one type, oldest first (as Forgejo lists them); optionally only the one with `fingerprint`. */
  listOf(ownerId: number, type: number, page: PageRequest, fingerprint?: string): Promise<Page<PublicKey>> {
    let base = this.db.selectFrom('public_key').where('owner_id', '=', ownerId).where('type', '=', type);
    if (fingerprint !== undefined) base = base.where('fingerprint', '=', fingerprint);
    return Store.page(
      base.selectAll().orderBy('id', 'asc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Deletes one of an owner's keys; true when it existed. */
  async deleteOne(ownerId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('public_key').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAllOf(ownerId: number, type: number): Promise<void> {
    await this.db.deleteFrom('public_key').where('owner_id', '=', ownerId).where('type', '=', type).execute();
  }

  /** Records a use: Forgejo shows a key as recently used by its update time. */
  async touch(id: number, now: number): Promise<void> {
    await this.db.updateTable('public_key').set({ updated_unix: now }).where('id', '=', id).execute();
  }
}
