import type { Insertable, Updateable } from 'kysely';
import type { StoreScope } from '../storage/index.js';
import { UsersStore } from './store.js';
import { UserAdminStore, type UserAdminPatch } from './admin-store.js';
import { UserCountersStore, type UserCounterDeltas } from './counters.js';
import { BlocksStore } from './blocks-store.js';
import type { User, UserBlocking, UserTable } from './tables.js';
import { ACTIONS_USER, ACTIONS_USER_ID } from './system.js';
import type { Page, PageRequest } from '../paging.js';

/**
 * What other domains may read and write of accounts (individuals and organizations share the `user` table). The
 * users stores stay private to this folder; the counters of `user` rows are moved only through here.
 */
export class UsersPort {
  constructor(private readonly scope: StoreScope) {}

  private get users(): UsersStore {
    return this.scope.store(UsersStore);
  }

  // ---- reads ----

  /** How many individual accounts there are, and how many signed in since each time given (Forgejo's `CountUsers`). */
  countIndividuals(signedInSince: readonly number[]): Promise<{ total: number; since: number[] }> {
    return this.users.countIndividualsSignedIn(signedInSince);
  }

  /** The account with this id (compiled once: read on every token-authenticated request). */
  byId(id: number): Promise<User | undefined> {
    return this.users.findById(id);
  }

  /** The account with this name, case-insensitively (repository owners, `?owner=` filters). */
  byName(name: string): Promise<User | undefined> {
    return this.users.findByName(name);
  }

  /**
   * The accounts with these ids, by id, in one query per 500: keeps a page's query count fixed. The Actions user
   * (what a workflow's token writes as) is among them by its fixed row, so what it wrote shows its name.
   */
  async byIds(ids: readonly number[]): Promise<Map<number, User>> {
    const found = await this.users.findByIds(ids.filter((id) => id > 0));
    if (ids.includes(ACTIONS_USER_ID)) found.set(ACTIONS_USER_ID, ACTIONS_USER);
    return found;
  }

  /** The accounts with these lower-cased names (`@mentions`, reviewer lists), in one query per 500. */
  byLowerNames(lowerNames: readonly string[]): Promise<User[]> {
    return this.users.findByLowerNames(lowerNames);
  }

  /** Lower-cased names of these accounts, by id, in one query per 500 (storage paths of a page of repositories). */
  lowerNames(ids: readonly number[]): Promise<Map<number, string>> {
    return this.users.lowerNames(ids);
  }

  /** The individual account whose own email this is (a merge's author), if any. */
  byEmail(email: string): Promise<User | undefined> {
    return this.users.findByEmail(email);
  }

  /** Individual accounts by activated or own address, keyed by lower-cased address, in one query (commit authors). */
  byEmails(emails: readonly string[]): Promise<Map<string, User>> {
    return this.users.findByEmails(emails);
  }

  /** Account names behind commit emails (activated or no-reply addresses), keyed by lower-cased email, in one or two queries. */
  usernamesByCommitEmail(emails: readonly string[], noReplyDomain: string): Promise<Map<string, string>> {
    return this.users.usernamesByCommitEmail(emails, noReplyDomain);
  }

  /** An account's activated addresses, lower-cased (what a signature's email must be one of). */
  async activatedEmailsOf(uid: number): Promise<string[]> {
    return (await this.users.emailsOf(uid)).filter((row) => row.is_activated === 1).map((row) => row.lower_email);
  }

  /** How many repositories the account may own (its `max_repo_creation`; -1 or less: the site's limit). */
  async repoCreationLimitOf(id: number): Promise<number> {
    return (await this.scope.store(UserAdminStore).limitsOf(id)).max_repo_creation;
  }

  /** Whether an administrator allowed the account to create organizations. */
  async allowedToCreateOrganizations(id: number): Promise<boolean> {
    return (await this.scope.store(UserAdminStore).limitsOf(id)).allow_create_organization === 1;
  }

  /** Whether an administrator allowed the account to edit repositories' git hooks (`allow_git_hook`). */
  async allowedGitHooks(id: number): Promise<boolean> {
    return (await this.scope.store(UserAdminStore).limitsOf(id)).allow_git_hook === 1;
  }

  /** How many site administrators there are (the last one is never deleted). */
  countAdmins(): Promise<number> {
    return this.users.countAdmins();
  }

  /** Whether any account signs in through this login source (it may not be deleted while one does). */
  async anyUsesLoginSource(sourceId: number): Promise<boolean> {
    return (await this.scope.store(UserAdminStore).search({ sourceId }, { page: 1, limit: 1 })).total > 0;
  }

  // ---- organizations' rows (the orgs domain owns their teams and members, this one the `user` row) ----

  /** Inserts an account row (an organization's) and returns it. */
  insert(row: Insertable<UserTable>): Promise<User> {
    return this.users.insert(row);
  }

  /** Changes profile columns (or the name) of an account; returns the updated row. */
  update(id: number, changes: Updateable<UserTable>): Promise<User> {
    return this.users.update(id, changes);
  }

  /** Changes columns of an account (its name, on a rename); undefined when the row is gone. */
  updateIfPresent(id: number, patch: UserAdminPatch): Promise<User | undefined> {
    return this.scope.store(UserAdminStore).update(id, patch);
  }

  /** Deletes an account's row and its email addresses (an individual's or an organization's, once its own rows are gone). */
  delete(id: number): Promise<void> {
    return this.users.delete(id);
  }

  // ---- counters: moved inside the transaction that changes what they count, so they stay true ----

  /**
   * Moves the owned-repository counter (`num_repos`) by `delta`; with `below` (a creation limit, -1 for none) only
   * while the counter is under it, checked and moved in one statement: false when the account is at its limit.
   */
  async adjustRepoCount(id: number, delta: number, below = -1): Promise<boolean> {
    return this.users.adjustRepoCount(id, delta, below);
  }

  /** Moves the follow and star counters of every account in `ids` (distinct) by the same deltas. */
  adjustCounters(ids: readonly number[], deltas: UserCounterDeltas): Promise<void> {
    return this.scope.store(UserCountersStore).adjust(ids, deltas);
  }

  /** Locks two accounts' rows, lower id first, until the transaction ends (PostgreSQL), so changes to one pair serialize. */
  lockPair(a: number, b: number): Promise<void> {
    return this.scope.store(UserCountersStore).lockPair(a, b);
  }

  // ---- blocks: asked before one account acts in another's places; the social domain adds and removes them ----

  /** Has `blockerId` blocked `userId`? (an organization refusing a member, a recipient refusing a transfer) */
  isBlocked(blockerId: number, userId: number): Promise<boolean> {
    return this.scope.store(BlocksStore).isBlocked(blockerId, userId);
  }

  /** Has any of `blockerIds` blocked `userId`? One query (an issue's poster and its repository's owner, say). */
  isBlockedByAny(blockerIds: readonly number[], userId: number): Promise<boolean> {
    return this.scope.store(BlocksStore).isBlockedByAny(blockerIds, userId);
  }

  /** Has either of the two blocked the other? (a collaboration is refused either way) */
  eitherBlocked(a: number, b: number): Promise<boolean> {
    return this.scope.store(BlocksStore).eitherBlocked(a, b);
  }

  /** The accounts `userId` blocked (those that still exist), oldest block first. */
  blocksOf(userId: number, page: PageRequest): Promise<Page<UserBlocking>> {
    return this.scope.store(BlocksStore).list(userId, page);
  }

  /** Records that `userId` blocked `blockId`; true when the block is new. */
  insertBlock(userId: number, blockId: number, now: number): Promise<boolean> {
    return this.scope.store(BlocksStore).insert(userId, blockId, now);
  }

  /** Removes the block; true when there was one. */
  deleteBlock(userId: number, blockId: number): Promise<boolean> {
    return this.scope.store(BlocksStore).delete(userId, blockId);
  }

  /** Removes every block by or of an account (it is being deleted). */
  deleteBlocksOf(userId: number): Promise<void> {
    return this.scope.store(BlocksStore).deleteAllOf(userId);
  }
}
