import type { Insertable } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { GpgKey, GpgKeyImport, GpgKeyImportTable, GpgKeyTable, GpgKeyWithSubkeys, GpgTables } from './tables.js';

/** The `gpg_key` and `gpg_key_import` tables. */
export class GpgKeysStore extends Store<GpgTables> {
  /** Those of `keyIds` some row already has (any account's, primary or subkey). */
  async existingKeyIds(keyIds: readonly string[]): Promise<string[]> {
    if (keyIds.length === 0) return [];
    const rows = await this.db.selectFrom('gpg_key').select('key_id').where('key_id', 'in', keyIds).execute();
    return rows.map((r) => r.key_id);
  }

  insert(row: Insertable<GpgKeyTable>): Promise<GpgKey> {
    return this.db.insertInto('gpg_key').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async insertImport(row: Insertable<GpgKeyImportTable>): Promise<void> {
    await this.db.insertInto('gpg_key_import').values(row).execute();
  }

  /** An owner's primary keys, oldest first, each with its subkeys (two queries for the whole page). */
  async listOf(ownerId: number, page: PageRequest): Promise<Page<GpgKeyWithSubkeys>> {
    const base = this.db.selectFrom('gpg_key').where('owner_id', '=', ownerId).where('primary_key_id', '=', '');
    const result = await Store.page(
      base.selectAll().orderBy('id', 'asc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
    return { items: await this.withSubkeys(result.items), total: result.total };
  }

  /** One of an owner's rows by id (a primary key or a subkey, as Forgejo finds it), with its subkeys. */
  async byIdOf(ownerId: number, id: number): Promise<GpgKeyWithSubkeys | undefined> {
    const key = await this.db.selectFrom('gpg_key').selectAll().where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    return key && (await this.withSubkeys([key]))[0];
  }

  /** An owner's primary key by key id, with its subkeys. */
  async primaryByKeyIdOf(ownerId: number, keyId: string): Promise<GpgKeyWithSubkeys | undefined> {
    const key = await this.db
      .selectFrom('gpg_key')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('key_id', '=', keyId)
      .where('primary_key_id', '=', '')
      .executeTakeFirst();
    return key && (await this.withSubkeys([key]))[0];
  }

  /** The row of a key id (primary or subkey), whoever owns it: what a signature's issuer id is looked up by. */
  byKeyId(keyId: string): Promise<GpgKey | undefined> {
    return this.db.selectFrom('gpg_key').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  }

  importOf(primaryKeyId: string): Promise<GpgKeyImport | undefined> {
    return this.db.selectFrom('gpg_key_import').selectAll().where('key_id', '=', primaryKeyId).executeTakeFirst();
  }

  private async withSubkeys(keys: GpgKey[]): Promise<GpgKeyWithSubkeys[]> {
    const primaryIds = keys.filter((k) => k.primary_key_id === '').map((k) => k.key_id);
    const subkeys = primaryIds.length
      ? await this.db.selectFrom('gpg_key').selectAll().where('primary_key_id', 'in', primaryIds).orderBy('id', 'asc').execute()
      : [];
    return keys.map((key) => ({ key, subkeys: key.primary_key_id === '' ? subkeys.filter((s) => s.primary_key_id === key.key_id) : [] }));
  }

  /** Marks a primary key and its subkeys verified. */
  async markVerified(ownerId: number, keyId: string): Promise<void> {
    await this.db
      .updateTable('gpg_key')
      .set({ verified: 1 })
      .where('owner_id', '=', ownerId)
      .where((eb) => eb.or([eb('key_id', '=', keyId), eb('primary_key_id', '=', keyId)]))
      .execute();
  }

  /** Deletes a primary key, its subkeys and its import; true when it existed. */
  async deletePrimary(ownerId: number, keyId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('gpg_key')
      .where('owner_id', '=', ownerId)
      .where((eb) => eb.or([eb('key_id', '=', keyId), eb('primary_key_id', '=', keyId)]))
      .executeTakeFirst();
    await this.db.deleteFrom('gpg_key_import').where('key_id', '=', keyId).execute();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes every key of an account (the account is being deleted). */
  async deleteAllOf(ownerId: number): Promise<void> {
    const primaries = await this.db.selectFrom('gpg_key').select('key_id').where('owner_id', '=', ownerId).where('primary_key_id', '=', '').execute();
    if (primaries.length) await this.db.deleteFrom('gpg_key_import').where('key_id', 'in', primaries.map((p) => p.key_id)).execute();
    await this.db.deleteFrom('gpg_key').where('owner_id', '=', ownerId).execute();
  }
}
