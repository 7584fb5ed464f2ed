import type { Insertable } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { KeyType, type DeployKey, type DeployKeyTable, type KeysTables, type PublicKey, type PublicKeyTable } from './tables.js';

/** A deploy key with its key's content (kept once, in `public_key`). */
export type DeployKeyWithContent = DeployKey & { content: string };

/** The `public_key` and `deploy_key` tables. */
export class KeysStore extends Store<KeysTables> {
  /** Compiled once: every SSH connection looks its key up by content while authenticating. */
  private readonly byContentQuery = this.precompiled<PublicKey, 'content'>('byContent', (db, param) =>
    db.selectFrom('public_key').selectAll().where('content', '=', param('content')),
  );
  private readonly byIdQuery = this.precompiled<PublicKey, 'id'>('byId', (db, param) =>
    db.selectFrom('public_key').selectAll().where('id', '=', param('id')),
  );
  /** Compiled once: every SSH connection with a deploy key asks for its grant on the repository it names. */
  private readonly deployKeyOfQuery = this.precompiled<DeployKey, 'keyId' | 'repoId'>('deployKeyOf', (db, param) =>
    db.selectFrom('deploy_key').selectAll().where('key_id', '=', param('keyId')).where('repo_id', '=', param('repoId')),
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

  /** An owner's keys that may sign git objects (their user keys), oldest first: one query per signer checked. */
  signingKeysOf(ownerId: number): Promise<PublicKey[]> {
    return this.db.selectFrom('public_key').selectAll().where('owner_id', '=', ownerId).where('type', '=', KeyType.User).orderBy('id', 'asc').execute();
  }

  /** Records that the owner proved they hold the key's private half. */
  async markVerified(id: number, now: number): Promise<void> {
    await this.db.updateTable('public_key').set({ verified: 1, updated_unix: now }).where('id', '=', id).execute();
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

  /** Deletes a key by id, whoever owns it (a deploy key's row once no repository uses it). */
  async deleteById(id: number): Promise<void> {
    await this.db.deleteFrom('public_key').where('id', '=', id).execute();
  }

  // Deploy keys.

  private deployKeysWithContent() {
    return this.db
      .selectFrom('deploy_key')
      .innerJoin('public_key', 'public_key.id', 'deploy_key.key_id')
      .selectAll('deploy_key')
      .select('public_key.content');
  }

  /** The grant of key `keyId` on repository `repoId`, if it is one of its deploy keys. */
  async deployKeyOf(keyId: number, repoId: number): Promise<DeployKey | undefined> {
    return (await this.deployKeyOfQuery({ keyId, repoId }))[0];
  }

  deployKeyById(id: number): Promise<DeployKeyWithContent | undefined> {
    return this.deployKeysWithContent().where('deploy_key.id', '=', id).executeTakeFirst();
  }

  async deployKeyNameTaken(repoId: number, name: string): Promise<boolean> {
    const row = await this.db.selectFrom('deploy_key').select('id').where('repo_id', '=', repoId).where('name', '=', name).executeTakeFirst();
    return row !== undefined;
  }

  insertDeployKey(row: Insertable<DeployKeyTable>): Promise<DeployKey> {
    return this.db.insertInto('deploy_key').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** A repository's deploy keys, oldest first; optionally only those of one key (`keyId`) or fingerprint. */
  listDeployKeys(repoId: number, page: PageRequest, filter: { keyId?: number; fingerprint?: string } = {}): Promise<Page<DeployKeyWithContent>> {
    let base = this.db.selectFrom('deploy_key').where('deploy_key.repo_id', '=', repoId);
    if (filter.keyId !== undefined) base = base.where('deploy_key.key_id', '=', filter.keyId);
    if (filter.fingerprint !== undefined) base = base.where('deploy_key.fingerprint', '=', filter.fingerprint);
    const rows = base
      .innerJoin('public_key', 'public_key.id', 'deploy_key.key_id')
      .selectAll('deploy_key')
      .select('public_key.content')
      .orderBy('deploy_key.id', 'asc')
      .limit(page.limit)
      .offset(offsetOf(page));
    return Store.page(rows.execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** Deletes one deploy key of a repository; true when it existed. */
  async deleteDeployKey(repoId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('deploy_key').where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes every deploy key of a repository; returns the `public_key` ids they used. */
  async deleteDeployKeysOfRepo(repoId: number): Promise<number[]> {
    const rows = await this.db.deleteFrom('deploy_key').where('repo_id', '=', repoId).returning('key_id').execute();
    return [...new Set(rows.map((r) => r.key_id))];
  }

  /** Deletes those of `keyIds` that are deploy keys no repository uses any more. */
  async deleteUnusedDeployPublicKeys(keyIds: readonly number[], deployType: number): Promise<void> {
    if (keyIds.length === 0) return;
    await this.db
      .deleteFrom('public_key')
      .where('id', 'in', keyIds)
      .where('type', '=', deployType)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('deploy_key').select('deploy_key.id').whereRef('deploy_key.key_id', '=', 'public_key.id'))))
      .execute();
  }

  /** Records a deploy key's use on its repository. */
  async touchDeployKey(id: number, now: number): Promise<void> {
    await this.db.updateTable('deploy_key').set({ updated_unix: now }).where('id', '=', id).execute();
  }
}
