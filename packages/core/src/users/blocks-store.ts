/** Blocks between accounts: what issues, collaborations, team memberships and transfers ask before they let one in. */
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { UserBlocking, UsersTables } from './tables.js';

/** `user_blocking`: who blocked whom. */
export class BlocksStore extends Store<Pick<UsersTables, 'user' | 'user_blocking'>> {
  /** True when the block is new. */
  async insert(userId: number, blockId: number, now: number): Promise<boolean> {
    const row = await this.db
      .insertInto('user_blocking')
      .values({ user_id: userId, block_id: blockId, created_unix: now })
      .onConflict((oc) => oc.columns(['user_id', 'block_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** True when there was a block to remove. */
  async delete(userId: number, blockId: number): Promise<boolean> {
    const row = await this.db.deleteFrom('user_blocking').where('user_id', '=', userId).where('block_id', '=', blockId).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  /** Has `blockerId` blocked `userId`? */
  async isBlocked(blockerId: number, userId: number): Promise<boolean> {
    const row = await this.db.selectFrom('user_blocking').select('id').where('user_id', '=', blockerId).where('block_id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }

  /** Has any of `blockerIds` blocked `userId`? One query (an issue's poster and its repository's owner, say). */
  async isBlockedByAny(blockerIds: readonly number[], userId: number): Promise<boolean> {
    if (blockerIds.length === 0) return false;
    const row = await this.db
      .selectFrom('user_blocking')
      .select('id')
      .where('user_id', 'in', [...blockerIds])
      .where('block_id', '=', userId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Has either of the two blocked the other? */
  async eitherBlocked(a: number, b: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_blocking')
      .select('id')
      .where((eb) => eb.or([eb.and([eb('user_id', '=', a), eb('block_id', '=', b)]), eb.and([eb('user_id', '=', b), eb('block_id', '=', a)])]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The accounts `userId` blocked (those that still exist), oldest block first. */
  list(userId: number, page: PageRequest): Promise<Page<UserBlocking>> {
    const base = this.db.selectFrom('user_blocking').innerJoin('user', 'user.id', 'user_blocking.block_id').where('user_blocking.user_id', '=', userId);
    return Store.page(
      base.selectAll('user_blocking').orderBy('user_blocking.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Removes every block by or of an account. */
  async deleteAllOf(userId: number): Promise<void> {
    await this.db.deleteFrom('user_blocking').where((eb) => eb.or([eb('user_id', '=', userId), eb('block_id', '=', userId)])).execute();
  }
}
