/**
 * The social relations' rows. Lists join, read-only, the `user` rows (and for stars the `repository` row and its
 * owner's) they filter on, so that a page and its count come from one visibility filter, in SQL.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { Store } from '../storage/store.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { UserType, type User, type UsersTables } from '../users/tables.js';
import { userVisibleSql, type UserVisibilityFilter } from '../users/visibility.js';
import type { Repository, ReposTables } from '../repos/tables.js';
import { ReposPort } from '../repos/port.js';
import type { SocialTables, UserBlocking } from './tables.js';
import type { RepoListFilter } from './types.js';

export type { RepoListFilter } from './types.js';

type RepoListTables = Pick<ReposTables, 'repository'> & { owner: UsersTables['user'] };

/** The WHERE shared by the starred and watched lists, over `repository` and its owner joined as `owner`. */
export function repoListCondition(eb: unknown, filter: RepoListFilter): Expression<SqlBool> {
  const shown = ReposPort.visible(eb as Parameters<typeof ReposPort.visible>[0], filter.visibility);
  return filter.publicOnly ? sql<SqlBool>`(${shown} AND repository.is_private = 0)` : shown;
}

/** `follow`: who follows whom. */
export class FollowsStore extends Store<SocialTables & Pick<UsersTables, 'user'>> {
  /** True when the follow is new (false: it existed already). */
  async insert(userId: number, followId: number, now: number): Promise<boolean> {
    const row = await this.db
      .insertInto('follow')
      .values({ user_id: userId, follow_id: followId, created_unix: now })
      .onConflict((oc) => oc.columns(['user_id', 'follow_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** True when there was a follow to remove. */
  async delete(userId: number, followId: number): Promise<boolean> {
    const row = await this.db.deleteFrom('follow').where('user_id', '=', userId).where('follow_id', '=', followId).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  async isFollowing(userId: number, followId: number): Promise<boolean> {
    const row = await this.db.selectFrom('follow').select('id').where('user_id', '=', userId).where('follow_id', '=', followId).executeTakeFirst();
    return row !== undefined;
  }

  /** Individual accounts following `userId` that `visible` lets through, in the order they followed. */
  listFollowers(userId: number, shown: UserVisibilityFilter, page: PageRequest): Promise<Page<User>> {
    const base = this.db
      .selectFrom('follow')
      .innerJoin('user', 'user.id', 'follow.user_id')
      .where('follow.follow_id', '=', userId)
      .where('user.type', '=', UserType.Individual)
      .where(userVisibleSql(shown));
    return Store.page(
      base.selectAll('user').orderBy('follow.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Accounts `userId` follows that `visible` lets through, in the order they were followed. */
  listFollowing(userId: number, shown: UserVisibilityFilter, page: PageRequest): Promise<Page<User>> {
    const base = this.db
      .selectFrom('follow')
      .innerJoin('user', 'user.id', 'follow.follow_id')
      .where('follow.user_id', '=', userId)
      .where(userVisibleSql(shown));
    return Store.page(
      base.selectAll('user').orderBy('follow.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Removes every follow from and to `userId`: returns whom it followed and who followed it. */
  async deleteAllOf(userId: number): Promise<{ followed: number[]; followers: number[] }> {
    const followed = await this.db.deleteFrom('follow').where('user_id', '=', userId).returning('follow_id').execute();
    const followers = await this.db.deleteFrom('follow').where('follow_id', '=', userId).returning('user_id').execute();
    return { followed: followed.map((r) => r.follow_id), followers: followers.map((r) => r.user_id) };
  }
}

/** `star`: who starred which repository. */
export class StarsStore extends Store<SocialTables & Pick<UsersTables, 'user'> & RepoListTables> {
  /** True when the star is new. */
  async insert(uid: number, repoId: number, now: number): Promise<boolean> {
    const row = await this.db
      .insertInto('star')
      .values({ uid, repo_id: repoId, created_unix: now })
      .onConflict((oc) => oc.columns(['uid', 'repo_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** True when there was a star to remove. */
  async delete(uid: number, repoId: number): Promise<boolean> {
    const row = await this.db.deleteFrom('star').where('uid', '=', uid).where('repo_id', '=', repoId).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  async isStarring(uid: number, repoId: number): Promise<boolean> {
    const row = await this.db.selectFrom('star').select('id').where('uid', '=', uid).where('repo_id', '=', repoId).executeTakeFirst();
    return row !== undefined;
  }

  /** Repositories `uid` starred that `filter` lets through, in the order they were starred. */
  listStarred(uid: number, filter: RepoListFilter, page: PageRequest): Promise<Page<Repository>> {
    const base = this.db
      .selectFrom('star')
      .innerJoin('repository', 'repository.id', 'star.repo_id')
      .innerJoin('user as owner', 'owner.id', 'repository.owner_id')
      .where('star.uid', '=', uid)
      .where((eb) => repoListCondition(eb, filter));
    return Store.page(
      base.selectAll('repository').orderBy('star.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Accounts that starred `repoId` that `shown` lets through, in the order they starred it. */
  listStargazers(repoId: number, shown: UserVisibilityFilter, page: PageRequest): Promise<Page<User>> {
    const base = this.db.selectFrom('star').innerJoin('user', 'user.id', 'star.uid').where('star.repo_id', '=', repoId).where(userVisibleSql(shown));
    return Store.page(
      base.selectAll('user').orderBy('star.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Removes every star of an account; returns the repositories it had starred. */
  async deleteOfUser(uid: number): Promise<number[]> {
    return (await this.db.deleteFrom('star').where('uid', '=', uid).returning('repo_id').execute()).map((r) => r.repo_id);
  }

  /** Removes every star of a repository; returns the accounts that had starred it. */
  async deleteOfRepo(repoId: number): Promise<number[]> {
    return (await this.db.deleteFrom('star').where('repo_id', '=', repoId).returning('uid').execute()).map((r) => r.uid);
  }
}

/** `user_blocking`: who blocked whom. */
export class BlocksStore extends Store<SocialTables & Pick<UsersTables, 'user'>> {
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
