/**
 * The social relations' rows. Lists join, read-only, the `user` rows (and for stars the `repository` row and its
 * owner's) they filter on, so that a page and its count come from one visibility filter, in SQL.
 */
import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { UserType, type User, type UsersTables } from '../users/index.js';
import { userVisibleSql, type UserVisibilityFilter } from '../users/index.js';
import type { Repository, ReposTables } from '../repos/index.js';
import { repoListCondition, type RepoListFilter } from '../repos/index.js';
import type { SocialTables } from './tables.js';

type RepoListTables = Pick<ReposTables, 'repository'> & { owner: UsersTables['user'] };

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
      .where('user.type', '=', sql.lit(UserType.Individual))
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
