import type { Kysely } from 'kysely';
import { ConflictError } from '../errors.js';
import { Store } from '../storage/index.js';
import { leaseOwnerOf, nowUnix, type Storage } from '../storage/index.js';
import type { RepoKey } from '../git/index.js';
import type { RepoGitIntent, ReposTables } from './tables.js';

/**
 * The kinds of change that touch git storage and the database together, as recorded before they start:
 * - `create`: storage is being made for a repository whose row does not exist yet; the transaction inserting the
 *   row deletes the intent. Left over: the row never committed, so the storage goes.
 * - `remove`: written in the transaction that deletes the row(s), deleted once the storage is gone. Left over:
 *   the storage goes (unless a row of that name exists again).
 * - `sync`: a push is running; deleted after its bookkeeping committed. Left over: the bookkeeping (emptiness,
 *   size, default branch) is derived again from the refs.
 * - `rename`: the storage of repository `repo_id` is being moved to the key the intent names (a rename or a
 *   transfer), before the transaction that changes the row deletes the intent. Left over: the row did not change,
 *   so the storage goes back to where the row says it is.
 * - `head`: HEAD is being pointed at a new default branch, before the transaction that records it deletes the
 *   intent. Left over: HEAD goes back to the row's default branch.
 * - `owner-rename`: the folder of account `repo_id` (all its repositories) is being moved to owner `owner_name`
 *   (`repo_name` is empty), before the transaction that renames the account deletes the intent. Left over: the
 *   account kept its name, so the folder goes back to it. Repaired before every other kind, so that those find
 *   storage where the rows say it is.
 * - `fork`: as `create`, for a fork's storage (made from its parent's) whose row does not exist yet. Left over: the
 *   storage goes.
 * - `merge`: a pull request (`repo_id` holds its `pull_request` id) is being merged into the repository the key
 *   names; deleted by the transaction that marks it merged. Left over: `PullMergePush.repairMerge` finishes it
 *   when the base moved (its marker ref says so), as the pulls domain's record (`pulls/domain.ts`) asks.
 * - `wiki`: the repository's wiki (the key names its `<name>.wiki` storage) is being written (the wiki API, a push,
 *   a migration); deleted by the transaction that records `has_wiki_contents`. Left over: that flag is read from the
 *   wiki's branch again (`RepoWikiStorage.resync`).
 * Later kinds add their op here; one of another domain is repaired by the `repairs` of that domain's record.
 *
 * Each intent carries the process making the change (`owner`) and a lease (`lease_until_unix`) that process renews
 * while the change runs (`IntentLeases`), so that any process repairs an intent whose lease expired and none touches
 * one in progress (`RepoStorageService.reconcile` at start, `sweep` every minute).
 */
export type GitIntentOp = 'create' | 'remove' | 'sync' | 'rename' | 'head' | 'owner-rename' | 'fork' | 'merge' | 'wiki';

/**
 * A change holding its intent longer than this is taken as one its caller never ended (a failure path that left the
 * intent for repair): its lease is no longer renewed, so a sweep repairs it.
 */
const MAX_HOLD_MS = 24 * 3600_000;
const RENEW_BATCH = 500;

/** The intent was repaired by another process (its lease had expired): the change must not complete. */
export class IntentTakenOverError extends ConflictError {
  constructor() {
    super('the change was interrupted and repaired meanwhile; try again');
  }
}

/**
 * The intents one host holds on one open database, with the timer renewing their leases while any is held. An intent
 * is held from its insert until its delete (or `letGo`); its lease then runs out, unless the delete took the row.
 */
class IntentLeases {
  /** Held intents: id → when the hold began (ms). */
  private readonly held = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  /** The lease of the intents held, in seconds: set by each `hold` (every host on one storage has the same). */
  private leaseSeconds = 60;

  constructor(private readonly storage: Storage) {}

  get owner(): string {
    return leaseOwnerOf(this.storage);
  }

  /** Holds an intent whose lease lasts `leaseSeconds` (the holding host's `[repohost] LEASE_SECONDS`) unless renewed. */
  hold(id: number, leaseSeconds: number): void {
    this.held.set(id, Date.now());
    this.leaseSeconds = leaseSeconds;
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), (this.leaseSeconds * 1000) / 3);
    this.timer.unref();
  }

  /** Whether this host holds the intent: its change is running here. */
  holds(id: number): boolean {
    return this.held.has(id);
  }

  drop(id: number): void {
    this.held.delete(id);
    if (this.held.size === 0) this.stop();
  }

  /** Holds nothing any more: the host starts over (its changes are not running). */
  dropAll(): void {
    this.held.clear();
    this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async renew(): Promise<void> {
    const started = Date.now();
    for (const [id, since] of this.held) {
      if (started - since <= MAX_HOLD_MS) continue;
      this.held.delete(id);
      console.error(`[repohost] git intent ${id} was held for more than a day; it is left to the repair`);
    }
    const ids = [...this.held.keys()];
    if (ids.length === 0) return this.stop();
    const db = this.storage.db as Kysely<ReposTables>;
    const leaseUntil = nowUnix() + this.leaseSeconds;
    const renewed = new Set<number>();
    try {
      for (let i = 0; i < ids.length; i += RENEW_BATCH) {
        const rows = await db
          .updateTable('repo_git_intent')
          .set({ lease_until_unix: leaseUntil })
          .where('owner', '=', this.owner)
          .where('id', 'in', ids.slice(i, i + RENEW_BATCH))
          .returning('id')
          .execute();
        for (const row of rows) renewed.add(Number(row.id));
      }
    } catch {
      // The database did not answer: the next round tries again (the leases written last hold until then).
      return;
    }
    // Gone (a transaction that wrote it rolled back, or a repair took it): no longer held. A row written by a
    // transaction still open is not seen yet, so only holds older than a lease are let go.
    for (const id of ids) {
      const since = this.held.get(id);
      if (!renewed.has(id) && since !== undefined && started - since > this.leaseSeconds * 1000) this.held.delete(id);
    }
    if (this.held.size === 0) this.stop();
  }
}

const leasesByStorage = new WeakMap<Storage, IntentLeases>();

function leasesOf(storage: Storage): IntentLeases {
  let leases = leasesByStorage.get(storage);
  if (!leases) leasesByStorage.set(storage, (leases = new IntentLeases(storage)));
  return leases;
}

/** The `repo_git_intent` table. */
export class GitIntentStore extends Store<ReposTables> {
  private get leases(): IntentLeases {
    return leasesOf(this.scope.storage);
  }

  /** The lease owner of this host's intents. */
  get owner(): string {
    return this.leases.owner;
  }

  /** Records an intent held by this host (its lease renewed until it is deleted). */
  async insert(op: GitIntentOp, key: RepoKey, repoId = 0): Promise<number> {
    const now = nowUnix();
    const row = await this.db
      .insertInto('repo_git_intent')
      .values({ op, owner_name: key.owner, repo_name: key.name, repo_id: repoId, created_unix: now, owner: this.owner, lease_until_unix: now + this.scope.leaseSeconds })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    this.leases.hold(id, this.scope.leaseSeconds);
    return id;
  }

  /**
   * Deletes an intent. Inside a transaction (the one completing the change) only while this host still holds it:
   * otherwise another process repaired it after its lease expired, and IntentTakenOverError rolls the completion
   * back. Outside one (cleaning up after a failure), whoever holds it.
   */
  async delete(id: number): Promise<void> {
    this.leases.drop(id);
    if (!this.scope.inTransaction) {
      await this.db.deleteFrom('repo_git_intent').where('id', '=', id).execute();
      return;
    }
    const result = await this.db.deleteFrom('repo_git_intent').where('id', '=', id).where('owner', '=', this.owner).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new IntentTakenOverError();
  }

  /** Stops holding an intent left for repair: its lease ends now, so the next sweep repairs it. */
  async letGo(id: number): Promise<void> {
    this.leases.drop(id);
    await this.db.updateTable('repo_git_intent').set({ lease_until_unix: 0 }).where('id', '=', id).where('owner', '=', this.owner).execute();
  }

  /**
   * Takes an interrupted intent for repair, in one conditional UPDATE: only if its owner and lease are still those
   * read (nobody renewed or took it meanwhile). Held by this host until deleted or let go.
   */
  async claim(intent: Pick<RepoGitIntent, 'id' | 'owner' | 'lease_until_unix'>): Promise<boolean> {
    const result = await this.db
      .updateTable('repo_git_intent')
      .set({ owner: this.owner, lease_until_unix: nowUnix() + this.scope.leaseSeconds })
      .where('id', '=', intent.id)
      .where('owner', '=', intent.owner)
      .where('lease_until_unix', '=', intent.lease_until_unix)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    this.leases.hold(intent.id, this.scope.leaseSeconds);
    return true;
  }

  /** Whether the change of the intent runs in this host (which renews its lease). */
  heldHere(id: number): boolean {
    return this.leases.holds(id);
  }

  /** Forgets this host's holds (the host starts over; see `RepoStorageService.reconcile`). */
  dropHolds(): void {
    this.leases.dropAll();
  }

  /** Whether an intent other than `exceptId` names the storage `key` under a live lease (a change in progress there). */
  async liveOn(key: RepoKey, exceptId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('repo_git_intent')
      .select('id')
      .where('owner_name', '=', key.owner)
      .where('repo_name', '=', key.name)
      .where('id', '<>', exceptId)
      .where('lease_until_unix', '>=', nowUnix())
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every intent left, oldest first. */
  all(): Promise<RepoGitIntent[]> {
    return this.db.selectFrom('repo_git_intent').selectAll().orderBy('id').execute();
  }
}
