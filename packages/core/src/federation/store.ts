import type { Insertable } from 'kysely';
import { Store } from '../storage/index.js';
import type { FederatedUser, FederatedUserTable, FederationHost, FederationHostTable, FederationKeypair, FederationTables } from './tables.js';

/** The federation tables: key pairs, instances met, and their accounts. */
export class FederationStore extends Store<FederationTables> {
  /** Compiled once: every signed request and every actor document reads a key pair. */
  private readonly keypairQuery = this.precompiled<FederationKeypair, 'owner'>('keypair', (db, param) =>
    db.selectFrom('federation_keypair').selectAll().where('owner_id', '=', param('owner')),
  );

  async keypair(ownerId: number): Promise<FederationKeypair | undefined> {
    return (await this.keypairQuery({ owner: ownerId }))[0];
  }

  /** Stores a pair unless the owner has one already (another request or process made it first): false then. */
  async insertKeypair(ownerId: number, publicPem: string, privateEncrypted: string, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('federation_keypair')
      .values({ owner_id: ownerId, public_pem: publicPem, private_pem_encrypted: privateEncrypted, created_unix: now })
      .onConflict((oc) => oc.column('owner_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async deleteKeypairOf(ownerId: number): Promise<void> {
    await this.db.deleteFrom('federation_keypair').where('owner_id', '=', ownerId).execute();
  }

  keypairsAfter(afterId: number, limit: number): Promise<FederationKeypair[]> {
    return this.db.selectFrom('federation_keypair').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  async setPrivateKey(id: number, privateEncrypted: string): Promise<void> {
    await this.db.updateTable('federation_keypair').set({ private_pem_encrypted: privateEncrypted }).where('id', '=', id).execute();
  }

  async hostByAddress(fqdn: string, port: number): Promise<FederationHost | undefined> {
    return this.db.selectFrom('federation_host').selectAll().where('host_fqdn', '=', fqdn).where('host_port', '=', port).executeTakeFirst();
  }

  async hostById(id: number): Promise<FederationHost | undefined> {
    return this.db.selectFrom('federation_host').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async hostByKeyId(keyId: string): Promise<FederationHost | undefined> {
    return this.db.selectFrom('federation_host').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  }

  /** Inserts the instance unless it is known already; either way answers the stored row. */
  async insertHost(row: Insertable<FederationHostTable>): Promise<FederationHost> {
    await this.db
      .insertInto('federation_host')
      .values(row)
      .onConflict((oc) => oc.columns(['host_fqdn', 'host_port']).doNothing())
      .execute();
    return (await this.hostByAddress(row.host_fqdn, row.host_port))!;
  }

  async setHostKey(id: number, keyId: string, publicKey: string, now: number): Promise<void> {
    await this.db.updateTable('federation_host').set({ key_id: keyId, public_key: publicKey, updated_unix: now }).where('id', '=', id).execute();
  }

  /**
   * Records `startTime` as the instance's latest activity, only if it is later than the one recorded: of two
   * deliveries of one activity, one wins this.
   */
  async advanceLatestActivity(id: number, startTime: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('federation_host')
      .set({ latest_activity: startTime, updated_unix: now })
      .where('id', '=', id)
      .where('latest_activity', '<', startTime)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async federatedUserByExternalId(hostId: number, externalId: string): Promise<FederatedUser | undefined> {
    return this.db.selectFrom('federated_user').selectAll().where('federation_host_id', '=', hostId).where('external_id', '=', externalId).executeTakeFirst();
  }

  async federatedUserByKeyId(keyId: string): Promise<FederatedUser | undefined> {
    return this.db.selectFrom('federated_user').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  }

  /**
   * Claims the right to fetch an account's key again: only when the last time was before `notAfter`, and only one of
   * several requests at once (the one whose update finds the value it read).
   */
  async claimKeyRefresh(id: number, seen: number, notAfter: number, now: number): Promise<boolean> {
    if (seen > notAfter) return false;
    const result = await this.db.updateTable('federated_user').set({ key_refreshed_unix: now }).where('id', '=', id).where('key_refreshed_unix', '=', seen).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setFederatedUserKey(id: number, keyId: string, publicKey: string): Promise<FederatedUser | undefined> {
    return this.db.updateTable('federated_user').set({ key_id: keyId, public_key: publicKey }).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async insertFederatedUser(row: Insertable<FederatedUserTable>): Promise<FederatedUser> {
    return this.db.insertInto('federated_user').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** An account's federation records go with it: as an account of another instance, and as one followed from there. */
  async deleteFederatedUserOf(userId: number): Promise<void> {
    const federated = await this.db.selectFrom('federated_user').select('id').where('user_id', '=', userId).executeTakeFirst();
    if (federated) await this.db.deleteFrom('federated_user_follower').where('federated_user_id', '=', federated.id).execute();
    await this.db.deleteFrom('federated_user_follower').where('followed_user_id', '=', userId).execute();
    await this.db.deleteFrom('federated_user').where('user_id', '=', userId).execute();
  }

  /** Records a follower; false when it already followed. */
  async addFollower(followedUserId: number, federatedUserId: number, now: number): Promise<{ id: number } | undefined> {
    return this.db
      .insertInto('federated_user_follower')
      .values({ followed_user_id: followedUserId, federated_user_id: federatedUserId, created_unix: now })
      .onConflict((oc) => oc.columns(['followed_user_id', 'federated_user_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
  }

  async removeFollower(followedUserId: number, federatedUserId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('federated_user_follower').where('followed_user_id', '=', followedUserId).where('federated_user_id', '=', federatedUserId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The accounts of other instances following a local account, first follower first. */
  followersOf(followedUserId: number): Promise<FederatedUser[]> {
    return this.db
      .selectFrom('federated_user_follower')
      .innerJoin('federated_user', 'federated_user.id', 'federated_user_follower.federated_user_id')
      .selectAll('federated_user')
      .where('federated_user_follower.followed_user_id', '=', followedUserId)
      .orderBy('federated_user_follower.id')
      .execute();
  }
}
