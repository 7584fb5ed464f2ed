/**
 * Follows, stars, watches and blocks between accounts and repositories, with the counters they keep
 * (`num_followers`, `num_following`, `num_stars` of accounts; `num_stars`, `num_watches` of repositories): each
 * counter moves in the transaction that changes what it counts, and only when a row really came or went, so
 * repeated and concurrent calls count once.
 */
import './events.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSelf, signedInUser, type Actor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { AccessPort } from '../access/index.js';
import { OrgsService } from '../orgs/index.js';
import { nowUnix } from '../storage/index.js';
import { isOrganization, type User } from '../users/index.js';
import { UsersPort } from '../users/index.js';
import { userVisibilityFilter } from '../users/index.js';
import { searchVisibility } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { FollowsStore, StarsStore } from './store.js';
import type { RepoListFilter } from '../repos/index.js';
import type { UserBlocking } from '../users/index.js';

/** What a blocked account (or its blocker) is told when the block stops it. */
const BLOCKED_MESSAGE = 'user is blocked by the poster or repository owner';

export class SocialService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Registers what keeps the other side's counters true when accounts and repositories are deleted; once per host.
   * The relation rows are still there when these run (their keys are checked at commit), so each handler knows
   * whose counters to move before it deletes them.
   */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => this.forgetUser(tx, payload.user.id));
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      const stargazers = await tx.store(StarsStore).deleteOfRepo(payload.repo.id);
      await tx.port(UsersPort).adjustCounters(stargazers, { stars: -1 });
    });
  }

  private async forgetUser(tx: CoreTransaction, userId: number): Promise<void> {
    const users = tx.port(UsersPort);
    const repos = tx.port(ReposPort);
    const { followed, followers } = await tx.store(FollowsStore).deleteAllOf(userId);
    await users.adjustCounters(followed, { followers: -1 });
    await users.adjustCounters(followers, { following: -1 });
    await repos.adjustCounters(await tx.store(StarsStore).deleteOfUser(userId), { stars: -1 });
    await repos.adjustCounters(await repos.deleteWatchesOf(userId), { watches: -1 });
    await users.deleteBlocksOf(userId);
  }

  // ---- follows ----

  /**
   * `PUT /user/following/{username}`. Following oneself records nothing, following again changes nothing (as
   * Forgejo); a block between the two, either way, is refused.
   */
  async follow(actor: Actor, target: User): Promise<void> {
    const me = signedInUser(actor);
    if (me.id === target.id) return;
    await this.ctx.transaction(async (tx) => {
      await tx.port(UsersPort).lockPair(me.id, target.id);
      const follows = tx.store(FollowsStore);
      if (await follows.isFollowing(me.id, target.id)) return;
      if (await tx.port(UsersPort).eitherBlocked(me.id, target.id)) throw new ForbiddenError(BLOCKED_MESSAGE);
      if (!(await follows.insert(me.id, target.id, nowUnix()))) return;
      await this.countFollow(tx, me.id, target.id, +1);
      tx.emit('user.followed', { follower: me, followee: target, actor });
    });
  }

  /** `DELETE /user/following/{username}`: 204 whether or not there was a follow. */
  async unfollow(actor: Actor, target: User): Promise<void> {
    const me = signedInUser(actor);
    await this.ctx.transaction(async (tx) => {
      if (await this.removeFollow(tx, me.id, target.id)) tx.emit('user.unfollowed', { follower: me, followee: target, actor });
    });
  }

  private async removeFollow(tx: CoreTransaction, followerId: number, followeeId: number): Promise<boolean> {
    if (!(await tx.store(FollowsStore).delete(followerId, followeeId))) return false;
    await this.countFollow(tx, followerId, followeeId, -1);
    return true;
  }

  private async countFollow(tx: CoreTransaction, followerId: number, followeeId: number, delta: number): Promise<void> {
    const counters = tx.port(UsersPort);
    await counters.adjustCounters([followeeId], { followers: delta });
    await counters.adjustCounters([followerId], { following: delta });
  }

  /** Does `follower` follow `target`? */
  isFollowing(follower: User, target: User): Promise<boolean> {
    return this.ctx.store(FollowsStore).isFollowing(follower.id, target.id);
  }

  /** The individual accounts following `user` that `actor` may see. */
  listFollowers(actor: Actor, user: User, paging?: Paging): Promise<Page<User>> {
    return this.ctx.store(FollowsStore).listFollowers(user.id, userVisibilityFilter(actor), clampPage(this.ctx.settings, paging));
  }

  /** The accounts `user` follows that `actor` may see. */
  listFollowing(actor: Actor, user: User, paging?: Paging): Promise<Page<User>> {
    return this.ctx.store(FollowsStore).listFollowing(user.id, userVisibilityFilter(actor), clampPage(this.ctx.settings, paging));
  }

  // ---- stars ----

  /** `PUT /user/starred/{owner}/{repo}`: a repository the caller can read, unless its owner blocked the caller. */
  async star(actor: Actor, access: RepoAccess): Promise<void> {
    const me = signedInUser(actor);
    const { repo } = access;
    await this.ctx.transaction(async (tx) => {
      const stars = tx.store(StarsStore);
      if (await stars.isStarring(me.id, repo.id)) return;
      if (await this.blockedByOwner(tx.port(UsersPort), access, me)) throw new ForbiddenError(BLOCKED_MESSAGE);
      if (!(await stars.insert(me.id, repo.id, nowUnix()))) return;
      await tx.port(ReposPort).adjustCounters([repo.id], { stars: 1 });
      await tx.port(UsersPort).adjustCounters([me.id], { stars: 1 });
      tx.emit('repo.starred', { user: me, repo: { ...repo, num_stars: repo.num_stars + 1 }, actor });
    });
  }

  /** `DELETE /user/starred/{owner}/{repo}`: 204 whether or not there was a star. */
  async unstar(actor: Actor, access: RepoAccess): Promise<void> {
    const me = signedInUser(actor);
    const { repo } = access;
    await this.ctx.transaction(async (tx) => {
      if (!(await tx.store(StarsStore).delete(me.id, repo.id))) return;
      await tx.port(ReposPort).adjustCounters([repo.id], { stars: -1 });
      await tx.port(UsersPort).adjustCounters([me.id], { stars: -1 });
      tx.emit('repo.unstarred', { user: me, repo: { ...repo, num_stars: repo.num_stars - 1 }, actor });
    });
  }

  isStarring(actor: Actor, access: RepoAccess): Promise<boolean> {
    return this.ctx.store(StarsStore).isStarring(signedInUser(actor).id, access.repo.id);
  }

  /**
   * Repositories `user` starred that `actor` may see; only public ones on another account's list, as Forgejo
   * shows them. Each with the caller's access.
   */
  async listStarred(actor: Actor, user: User, paging?: Paging): Promise<Page<RepoAccess>> {
    const page = await this.ctx.store(StarsStore).listStarred(user.id, this.repoListFilter(actor, user), clampPage(this.ctx.settings, paging));
    return this.withAccess(actor, page);
  }

  /** The accounts that starred a repository, those `actor` may see, first star first. */
  listStargazers(actor: Actor, access: RepoAccess, paging?: Paging): Promise<Page<User>> {
    return this.ctx.store(StarsStore).listStargazers(access.repo.id, userVisibilityFilter(actor), clampPage(this.ctx.settings, paging));
  }

  // ---- watches ----

  /** `PUT /repos/{owner}/{repo}/subscription`: an explicit watch, unless the owner blocked the caller. */
  async watch(actor: Actor, access: RepoAccess): Promise<void> {
    const me = signedInUser(actor);
    const { repo } = access;
    await this.ctx.transaction(async (tx) => {
      const watches = tx.port(ReposPort);
      if (await watches.isWatching(me.id, repo.id)) return;
      if (await this.blockedByOwner(tx.port(UsersPort), access, me)) throw new ForbiddenError(BLOCKED_MESSAGE);
      if (await watches.startWatching(me.id, repo.id, nowUnix())) await watches.adjustCounters([repo.id], { watches: 1 });
    });
  }

  /** `DELETE /repos/{owner}/{repo}/subscription`: 204 whether or not the caller was watching. */
  async unwatch(actor: Actor, access: RepoAccess): Promise<void> {
    const me = signedInUser(actor);
    await this.ctx.transaction(async (tx) => {
      if (await tx.port(ReposPort).stopWatching(me.id, access.repo.id, nowUnix())) {
        await tx.port(ReposPort).adjustCounters([access.repo.id], { watches: -1 });
      }
    });
  }

  isWatching(actor: Actor, access: RepoAccess): Promise<boolean> {
    return this.ctx.port(ReposPort).isWatching(signedInUser(actor).id, access.repo.id);
  }

  /** Repositories `user` watches that `actor` may see (public ones only on another account's list). */
  async listSubscriptions(actor: Actor, user: User, paging?: Paging): Promise<Page<RepoAccess>> {
    const page = await this.ctx.port(ReposPort).listWatched(user.id, this.repoListFilter(actor, user), clampPage(this.ctx.settings, paging));
    return this.withAccess(actor, page);
  }

  /** The accounts watching a repository that `actor` may see. */
  listSubscribers(actor: Actor, access: RepoAccess, paging?: Paging): Promise<Page<User>> {
    return this.ctx.port(ReposPort).listWatchers(access.repo.id, userVisibilityFilter(actor), clampPage(this.ctx.settings, paging));
  }

  // ---- blocks ----

  /**
   * `PUT /user/block/{username}`, as Forgejo: blocking oneself or someone already blocked changes nothing; an
   * organization cannot be blocked (422). A new block ends the follows between the two, both ways, the blocked
   * account's watches of the blocker's repositories and its collaborations on them; its stars stay.
   */
  block(actor: Actor, target: User): Promise<void> {
    return this.blockAs(actor, signedInUser(actor), target);
  }

  /** `PUT /user/unblock/{username}`: 204 whether or not there was a block; organizations: 422. */
  unblock(actor: Actor, target: User): Promise<void> {
    return this.unblockAs(actor, signedInUser(actor), target);
  }

  /** `GET /user/list_blocked`: the accounts the caller blocked, oldest block first. */
  listBlocked(actor: Actor, paging?: Paging): Promise<Page<UserBlocking>> {
    return this.ctx.port(UsersPort).blocksOf(signedInUser(actor).id, clampPage(this.ctx.settings, paging));
  }

  /** `PUT /orgs/{org}/block/{username}` and the rest: an organization blocks as an account does; its owners decide. */
  async blockForOrg(actor: Actor, org: User, target: User): Promise<void> {
    await this.ctx.service(OrgsService).assertOwner(actor, org);
    await this.blockAs(actor, org, target);
  }

  async unblockForOrg(actor: Actor, org: User, target: User): Promise<void> {
    await this.ctx.service(OrgsService).assertOwner(actor, org);
    await this.unblockAs(actor, org, target);
  }

  async listBlockedByOrg(actor: Actor, org: User, paging?: Paging): Promise<Page<UserBlocking>> {
    await this.ctx.service(OrgsService).assertOwner(actor, org);
    return this.ctx.port(UsersPort).blocksOf(org.id, clampPage(this.ctx.settings, paging));
  }

  private async blockAs(actor: Actor, blocker: User, target: User): Promise<void> {
    if (isOrganization(target)) throw new ValidationError('', `${target.name} is an organization not a user`);
    if (blocker.id === target.id) return;
    await this.ctx.transaction(async (tx) => {
      await tx.port(UsersPort).lockPair(blocker.id, target.id);
      if (!(await tx.port(UsersPort).insertBlock(blocker.id, target.id, nowUnix()))) return;
      if (await this.removeFollow(tx, target.id, blocker.id)) tx.emit('user.unfollowed', { follower: target, followee: blocker, actor });
      if (await this.removeFollow(tx, blocker.id, target.id)) tx.emit('user.unfollowed', { follower: blocker, followee: target, actor });
      await tx.port(ReposPort).adjustCounters(await tx.port(ReposPort).deleteWatchesOf(target.id, blocker.id), { watches: -1 });
      await tx.port(AccessPort).deleteCollaborationsOnReposOf(blocker.id, target.id);
      // Repositories offered between the two, either way, stay where they are (as Forgejo cancels them).
      await tx.port(ReposPort).cancelTransfersBetween(blocker.id, target.id);
      tx.emit('user.blocked', { blocker, blockee: target, actor });
    });
  }

  private async unblockAs(actor: Actor, blocker: User, target: User): Promise<void> {
    if (isOrganization(target)) throw new ValidationError('', `${target.name} is an organization not a user`);
    await this.ctx.transaction(async (tx) => {
      if (await tx.port(UsersPort).deleteBlock(blocker.id, target.id)) tx.emit('user.unblocked', { blocker, blockee: target, actor });
    });
  }

  /** Has `blockerId` blocked `userId`? What issues, comments and reactions ask before letting `userId` act. */
  isBlocked(blockerId: number, userId: number): Promise<boolean> {
    return this.ctx.port(UsersPort).isBlocked(blockerId, userId);
  }

  /** Has any of `blockerIds` (an issue's poster and its repository's owner, say) blocked `userId`? One query. */
  isBlockedByAny(blockerIds: readonly number[], userId: number): Promise<boolean> {
    return this.ctx.port(UsersPort).isBlockedByAny(blockerIds, userId);
  }

  /**
   * Refuses `userId` with Forgejo's ErrBlockedByUser (403) when any of `blockerIds` blocked it: what a blocked account
   * may not do in its blocker's places (open issues and pull requests in their repositories, comment, react).
   */
  async assertNotBlockedByAny(blockerIds: readonly number[], userId: number): Promise<void> {
    if (await this.isBlockedByAny(blockerIds, userId)) throw new ForbiddenError(BLOCKED_MESSAGE);
  }

  // ---- shared ----

  private blockedByOwner(users: UsersPort, { owner }: RepoAccess, me: User): Promise<boolean> {
    return owner.id === me.id ? Promise.resolve(false) : users.isBlocked(owner.id, me.id);
  }

  private repoListFilter(actor: Actor, user: User): RepoListFilter {
    return { visibility: searchVisibility(actor, true), publicOnly: !isSelf(actor, user) };
  }

  /** A page of repositories with their owners (one query for all) and the caller's access to each. */
  private async withAccess(actor: Actor, page: Page<Repository>): Promise<Page<RepoAccess>> {
    const owners = await this.ctx.port(UsersPort).byIds(page.items.map((r) => r.owner_id));
    const pairs: { repo: Repository; owner: User }[] = [];
    for (const repo of page.items) {
      const owner = owners.get(repo.owner_id);
      if (owner) pairs.push({ repo, owner });
    }
    return { items: await this.ctx.service(AccessService).repoAccessMany(actor, pairs), total: page.total };
  }
}
