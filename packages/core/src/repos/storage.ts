import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import { clampPage, offsetOf, type Page, type Paging } from '../paging.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { DatabaseLocks, leaseOwnerGone, LockTimeoutError, nowUnix } from '../storage/index.js';
import { OwnerStorageExistsError, WIKI_SUFFIX, wikiRepoKey, type RepoKey } from '../git/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization } from '../users/index.js';
import { GitIntentStore } from './intents.js';
import { ReposService } from './service.js';
import type { DomainRepair } from '../domain.js';
import { ReposStore } from './store.js';
import { assertValidRepoName } from './names.js';
import type { RepoGitIntent, Repository } from './tables.js';
import { Glob } from '../glob.js';
import { RepoWikiStorage } from './wiki.js';

/** What start-up found and repaired of changes a crash interrupted. */
export interface ReconcileReport {
  /** Storage of creations (forks included) whose row never committed: removed. */
  abandonedCreates: RepoKey[];
  /** Storage of deleted repositories that was still there: removed. */
  finishedRemovals: RepoKey[];
  /**
   * Repositories whose bookkeeping was derived again from their refs after an interrupted push, or whose HEAD was
   * pointed back at the recorded default branch after an interrupted change of it.
   */
  resynced: RepoKey[];
  /** Storage moved back to where its row says it is, after a rename or transfer whose row change never committed. */
  undoneRenames: RepoKey[];
  /** Owners (lower-case names) whose folder went back to them after an account rename that never committed. */
  undoneOwnerRenames: string[];
  /** Repositories (ids) of migrations whose job ended without completing them: removed. */
  abandonedMigrations: number[];
}

declare module '../domain.js' {
  // Other domains' start-up repairs add to this report (`DomainRepair`).
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  interface RepairReport extends ReconcileReport {}
}

/** Where the database and storage disagree, for administrators to act on. */
export interface StorageCheck {
  /** Storage no row claims (adopt or delete them through `/admin/unadopted`). */
  unadopted: RepoKey[];
  /** Rows whose storage is missing: their git operations answer 404 until it is restored. */
  missing: RepoKey[];
}

const key = (owner: string, name: string): RepoKey => ({ owner: owner.toLowerCase(), name: name.toLowerCase() });
const keyText = (k: RepoKey) => `${k.owner}/${k.name}`;
const emptyReport = (): ReconcileReport => ({ abandonedCreates: [], finishedRemovals: [], resynced: [], undoneRenames: [], undoneOwnerRenames: [], abandonedMigrations: [] });

/** The database lock that serializes the storage changes of one repository, across every process (`DatabaseLocks`). */
export const repoStorageLock = (repoId: number) => `repo-storage:${repoId}`;
const STORAGE_BUSY = 'another change of this repository is in progress; try again later';

/**
 * How long what interrupted changes left in the storage's trash (removed repositories, scratch folders) is left
 * alone: processes sharing the storage put the scratch folders of their changes there, and a change keeps one for
 * far less than this. Older leftovers are garbage of a change whose process died; nothing names their process, so
 * their age is what tells.
 */
const TRASH_GRACE_MS = 3600_000;

/** What repairing one intent came to: done (the intent goes), done and the intent already gone with it, or not now. */
type RepairOutcome = 'repaired' | 'deleted' | 'busy';

/**
 * Keeps git storage and the database in agreement: finishes or undoes what the intents of interrupted changes say
 * (at start-up, and every minute from whichever process runs the `repair_git_intents` task), and serves Forgejo's
 * unadopted-repositories administration.
 */
export class RepoStorageService {
  /** Other domains' start-up repairs (their records in `domains.ts`): this domain imports none of them. */
  private repairs: readonly DomainRepair[] = [];
  constructor(private readonly ctx: CoreContext) {}

  /** Sets the repairs `reconcile` runs besides its own (the host gives those of `domains.ts`). */
  registerRepairs(repairs: readonly DomainRepair[]): void {
    this.repairs = repairs;
  }

  private get repos(): ReposService {
    return this.ctx.service(ReposService);
  }

  private get locks(): DatabaseLocks {
    return this.ctx.service(DatabaseLocks);
  }

  /** Whether a row claims the storage under `k`. */
  private async hasRow(k: RepoKey): Promise<boolean> {
    const owner = await this.ctx.port(UsersPort).byName(k.owner);
    return owner !== undefined && (await this.ctx.store(ReposStore).findByOwnerAndName(owner.id, k.name)) !== undefined;
  }

  /**
   * Replays what interrupted changes left, as a host starting over: run when the host opens, before it serves
   * anything, and by `repohost doctor`. This host's own changes are taken as over (at opening it has none; a caller
   * of a running host says none is in flight): its locks are released and its intents repaired with those of other
   * processes whose lease expired or whose process is gone. Changes other processes are making are left alone. Then
   * the other domains' repairs of their own rows run.
   */
  async reconcile(): Promise<ReconcileReport> {
    const report = emptyReport();
    await this.locks.reset();
    this.ctx.store(GitIntentStore).dropHolds();
    await this.ctx.git.collectGarbage(TRASH_GRACE_MS);
    await this.repairIntents(true, report);
    // Then what other domains' own rows say was interrupted (migrations that ended without completing).
    for (const repair of this.repairs) if (repair.intent === undefined) await repair.run(this.ctx, report);
    return report;
  }

  /**
   * Repairs the intents of changes whose process stopped renewing them (their lease expired, or their process on
   * this machine is gone), never one in progress: the `repair_git_intents` task of every process, every minute.
   */
  async sweep(): Promise<ReconcileReport> {
    const report = emptyReport();
    await this.repairIntents(false, report);
    // What dead changes left in the storage's trash, once old enough not to be a live change's.
    await this.ctx.git.collectGarbage(TRASH_GRACE_MS);
    return report;
  }

  /**
   * Repairs every intent that is interrupted: no owner (older than leases), an expired lease, an owner process gone
   * from this machine, or (`own`) this host's. Each is first taken with a conditional UPDATE, so two processes never
   * repair the same one; account renames go first, then the rest oldest first.
   */
  private async repairIntents(own: boolean, report: ReconcileReport): Promise<void> {
    const intents = this.ctx.store(GitIntentStore);
    const me = intents.owner;
    const now = nowUnix();
    const interrupted = (await intents.all()).filter((i) => {
      if (i.owner === me) return own || (Number(i.lease_until_unix) < now && !intents.heldHere(i.id));
      return i.owner === '' || Number(i.lease_until_unix) < now || leaseOwnerGone(i.owner);
    });
    // Account renames first: every other repair looks for storage under the owner name its row has now. Then oldest
    // first: a rename undone here puts the storage back before a later intent of the same row looks for it.
    const ordered = [...interrupted.filter((i) => i.op === 'owner-rename'), ...interrupted.filter((i) => i.op !== 'owner-rename')];
    for (const intent of ordered) {
      // Renewed or taken by another process since it was read: not this one's to repair.
      if (!(await intents.claim(intent))) continue;
      let outcome: RepairOutcome;
      try {
        outcome = await this.repairIntent(intent, report);
      } catch (error) {
        // Left for the next pass (a sweep, or the next start), whichever process runs it.
        await intents.letGo(intent.id).catch(() => undefined);
        throw error;
      }
      if (outcome === 'repaired') await intents.delete(intent.id);
      else if (outcome === 'busy') await intents.letGo(intent.id);
    }
  }

  /** Finishes or undoes what one interrupted intent (taken by this host) says. */
  private async repairIntent(intent: RepoGitIntent, report: ReconcileReport): Promise<RepairOutcome> {
    const k = { owner: intent.owner_name, name: intent.repo_name };
    switch (intent.op) {
      case 'owner-rename':
        await this.undoOwnerRename(intent.repo_id, intent.owner_name, report);
        return 'repaired';
      case 'create':
      case 'fork':
      case 'remove':
        // A row under that name owns the storage: a create that did commit, or a later create after a removal.
        if (await this.removeUnclaimed(k, intent.id)) (intent.op === 'remove' ? report.finishedRemovals : report.abandonedCreates).push(k);
        return 'repaired';
      case 'sync': {
        const found = await this.rowWithKey(intent.repo_id);
        // The row's key, not the intent's: a rename may have moved the storage since the push began.
        if (!found || !(await this.ctx.git.exists(found.key))) return 'repaired';
        // Deletes the intent with the bookkeeping it repairs.
        await this.repos.resyncFromRefs(found.repo, found.key, intent.id);
        report.resynced.push(found.key);
        return 'deleted';
      }
      case 'wiki': {
        // The row's key, not the intent's: a rename may have moved the storage since the write began.
        const found = await this.rowWithKey(intent.repo_id);
        if (found) await this.ctx.service(RepoWikiStorage).resync(found.repo, found.key, intent.id);
        report.resynced.push(found?.key ?? k);
        return found ? 'deleted' : 'repaired';
      }
      case 'rename':
      case 'head':
        // Not while another change of the repository's storage runs (a process that took its lock after the one
        // that died): this repair moves storage too.
        return this.withStorageLockIfFree(intent.repo_id, async () => {
          if (intent.op === 'rename') {
            await this.undoRename(intent.repo_id, k, intent.id, report);
            return;
          }
          const found = await this.rowWithKey(intent.repo_id);
          if (found && (await this.ctx.git.exists(found.key))) {
            await this.ctx.git.setDefaultBranch(found.key, found.repo.default_branch);
            report.resynced.push(found.key);
          }
        });
      default:
        // Ops other domains record (a pull request's `merge`): their repairs, in the same pass, oldest first. One
        // that answers 'busy' (a live change holds what it guards) leaves the intent for the next pass.
        for (const repair of this.repairs) {
          if (repair.intent !== intent.op) continue;
          if ((await repair.run(this.ctx, { id: intent.id, op: intent.op, repoId: intent.repo_id, key: k }, report)) === 'busy') return 'busy';
        }
        return 'repaired';
    }
  }

  /** Runs `work` holding the repository's storage lock when it is free within a moment; 'busy' when it is not. */
  private async withStorageLockIfFree(repoId: number, work: () => Promise<void>): Promise<RepairOutcome> {
    let lock;
    try {
      lock = await this.locks.acquire(repoStorageLock(repoId), { waitMs: 1000 });
    } catch (error) {
      if (error instanceof LockTimeoutError) return 'busy';
      throw error;
    }
    try {
      await work();
      return 'repaired';
    } finally {
      await lock.release();
    }
  }

  /**
   * Removes storage at `k` that no row claims and no change in progress is making (an intent under a live lease
   * names it): true when removed. Checked after the storage was seen, so a create that began meanwhile, whose intent
   * is written before its storage, is always seen here.
   */
  private async removeUnclaimed(k: RepoKey, intentId: number): Promise<boolean> {
    if (await this.hasRow(k)) return false;
    // The wiki goes with its repository (a removal may have taken the repository's storage and not yet the wiki's).
    const wiki = wikiRepoKey(k);
    if (!(await this.ctx.git.exists(k)) && !(await this.ctx.git.exists(wiki))) return false;
    if (await this.ctx.store(GitIntentStore).liveOn(k, intentId)) return false;
    await this.ctx.git.remove(k);
    await this.ctx.git.remove(wiki);
    return true;
  }

  /**
   * The storage of an interrupted move to `target` goes where the row says it is: the row is changed only by the
   * transaction that also deletes the intent, so a row still elsewhere means the move must be undone. When the row
   * is gone (deleted meanwhile), storage left at `target` that no row claims goes with it.
   */
  private async undoRename(repoId: number, target: RepoKey, intentId: number, report: ReconcileReport): Promise<void> {
    const found = await this.rowWithKey(repoId);
    if (!found) {
      if (await this.removeUnclaimed(target, intentId)) report.finishedRemovals.push(target);
      return;
    }
    if (keyText(found.key) === keyText(target)) return;
    if (!(await this.ctx.git.exists(found.key)) && (await this.ctx.git.exists(target))) {
      await this.ctx.git.rename(target, found.key);
      report.undoneRenames.push(found.key);
    }
    // The wiki moves after the repository: it may have moved, or not yet, when the change was interrupted.
    const [wikiHere, wikiThere] = [wikiRepoKey(found.key), wikiRepoKey(target)];
    if (!(await this.ctx.git.exists(wikiHere)) && (await this.ctx.git.exists(wikiThere))) await this.ctx.git.rename(wikiThere, wikiHere);
  }

  /**
   * The folder of an interrupted account rename to `target` goes back to the account's name as its row has it:
   * the row is renamed only by the transaction that also deletes the intent. When the account is gone, the
   * folder stays where it is (its repositories' removals recorded their own intents under the old name).
   */
  private async undoOwnerRename(userId: number, target: string, report: ReconcileReport): Promise<void> {
    const user = await this.ctx.port(UsersPort).byId(userId);
    if (!user || user.lower_name === target) return;
    try {
      if (await this.ctx.git.renameOwner(target, user.lower_name)) report.undoneOwnerRenames.push(user.lower_name);
    } catch (error) {
      // The account's own folder holds repositories: the move never happened, so there is nothing to undo.
      if (!(error instanceof OwnerStorageExistsError)) throw error;
    }
  }

  /**
   * Renames an account together with its storage: the owner folder moves first (recorded as an `owner-rename`
   * intent), then `commit` changes the row in the transaction that deletes the intent. A failure of `commit` or
   * of the move puts the folder back here; a crash leaves the intent, and `reconcile` puts it back. Fails with
   * OwnerStorageExistsError when the new name's place already holds files.
   */
  async renameOwnerWithStorage<T>(change: { userId: number; from: string; to: string }, commit: (tx: CoreTransaction) => Promise<T>): Promise<T> {
    const { from, to } = change;
    if (from === to) return this.ctx.transaction(commit);
    const intents = this.ctx.store(GitIntentStore);
    const intent = await intents.insert('owner-rename', { owner: to, name: '' }, change.userId);
    let moved = false;
    try {
      moved = await this.ctx.git.renameOwner(from, to);
      return await this.ctx.transaction(async (tx) => {
        const result = await commit(tx);
        await tx.store(GitIntentStore).delete(intent);
        return result;
      });
    } catch (error) {
      try {
        if (moved) await this.ctx.git.renameOwner(to, from);
        await intents.delete(intent);
      } catch (undoError) {
        // The intent stays, no longer held: the next sweep (or start) puts the folder back.
        await intents.letGo(intent).catch(() => undefined);
        console.error('[repohost] undoing an account folder move failed; it is repaired by the next sweep:', undoError);
      }
      throw error;
    }
  }

  /** A repository row by id with its storage key (its owner's name as it is now), if both exist. */
  private async rowWithKey(repoId: number): Promise<{ repo: Repository; key: RepoKey } | undefined> {
    const repo = await this.ctx.store(ReposStore).findById(repoId);
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    return repo && owner ? { repo, key: key(owner.lower_name, repo.lower_name) } : undefined;
  }

  /**
   * Changes a repository's git storage and then its row, so that a crash anywhere leaves them agreeing once
   * `reconcile` ran: `move` relocates the storage (rename, transfer), `head` points HEAD at a new default branch
   * (in the storage's new place when both are asked). Each git step is recorded as an intent first; `commit`
   * runs in the transaction that deletes the intents, so the row changes exactly when the intents go. If `commit`
   * (or a git step) fails, the git steps are undone here; if the process dies first, `reconcile` undoes them.
   * A `head` with `ifBranchExists` is made only when the storage has that branch, as seen holding the lock (a
   * branch deleted while the change waited for it is seen gone); `commit` learns whether HEAD moved.
   */
  async changeWithStorage<T>(
    change: { repoId: number; move?: { from: RepoKey; to: RepoKey }; head?: { key: RepoKey; branch: string; previous: string; ifBranchExists?: boolean } },
    commit: (tx: CoreTransaction, applied: { head: boolean }) => Promise<T>,
  ): Promise<T> {
    const move = change.move && keyText(change.move.from) !== keyText(change.move.to) ? change.move : undefined;
    const { head } = change;
    if (!move && !head) return this.ctx.transaction((tx) => commit(tx, { head: false }));
    // One storage change per repository at a time, whichever process makes it (a lock in the database); a change
    // the caller based on a row that moved since (a concurrent rename, transfer or default-branch change) is
    // refused before git is touched. The transaction recording it commits only while the lock is still held.
    return this.locks.withLock(
      repoStorageLock(change.repoId),
      async (lock) => {
        const current = await this.rowWithKey(change.repoId);
        const stale =
          !current ||
          (move !== undefined && keyText(current.key) !== keyText(move.from)) ||
          (head !== undefined && (keyText(current.key) !== keyText(move?.from ?? head.key) || current.repo.default_branch !== head.previous));
        if (stale) throw new ConflictError('the repository was changed meanwhile; try again');
        // Read where the storage is now (before the move): nothing else moves its HEAD or storage while the lock is held.
        const wanted = head?.ifBranchExists ? `refs/heads/${head.branch}` : undefined;
        const headGone = wanted !== undefined && !(await this.ctx.git.readRefs(current.key, [wanted])).has(wanted);
        const headNow = headGone ? undefined : head;
        return this.applyStorageChange(change.repoId, move, headNow, async (tx) => {
          await lock.confirm(tx);
          return commit(tx, { head: headNow !== undefined });
        });
      },
      { busyMessage: STORAGE_BUSY },
    );
  }

  /**
   * Runs `work` holding the repository's storage lock, given its row as it is now (undefined: deleted meanwhile):
   * a ref change whose check reads what a storage change may change (a branch delete and the default branch)
   * then cannot interleave with one. 409 when the lock stays taken.
   */
  withStorageLock<T>(repoId: number, work: (current: Repository | undefined) => Promise<T>): Promise<T> {
    return this.locks.withLock(repoStorageLock(repoId), async () => work(await this.ctx.store(ReposStore).findById(repoId)), { busyMessage: STORAGE_BUSY });
  }

  private async applyStorageChange<T>(
    repoId: number,
    move: { from: RepoKey; to: RepoKey } | undefined,
    head: { key: RepoKey; branch: string; previous: string } | undefined,
    commit: (tx: CoreTransaction) => Promise<T>,
  ): Promise<T> {
    const change = { repoId };
    const intents = this.ctx.store(GitIntentStore);
    const recorded: number[] = [];
    let moved = false;
    let wikiMoved = false;
    let headSet = false;
    try {
      if (move) {
        recorded.push(await intents.insert('rename', move.to, change.repoId));
        await this.ctx.git.rename(move.from, move.to);
        moved = true;
        // The wiki (if it has storage) moves with it, under the same intent: its repair moves both back.
        if (await this.ctx.git.exists(wikiRepoKey(move.from))) {
          await this.ctx.git.rename(wikiRepoKey(move.from), wikiRepoKey(move.to));
          wikiMoved = true;
        }
      }
      if (head) {
        recorded.push(await intents.insert('head', head.key, change.repoId));
        await this.ctx.git.setDefaultBranch(head.key, head.branch);
        headSet = true;
      }
      return await this.ctx.transaction(async (tx) => {
        const result = await commit(tx);
        for (const id of recorded) await tx.store(GitIntentStore).delete(id);
        return result;
      });
    } catch (error) {
      try {
        if (headSet) await this.ctx.git.setDefaultBranch(head!.key, head!.previous);
        if (wikiMoved) await this.ctx.git.rename(wikiRepoKey(move!.to), wikiRepoKey(move!.from));
        if (moved) await this.ctx.git.rename(move!.to, move!.from);
        for (const id of recorded) await intents.delete(id);
      } catch (undoError) {
        // The intents stay, no longer held: the next sweep (or start) puts the storage back where the row says.
        for (const id of recorded) await intents.letGo(id).catch(() => undefined);
        console.error('[repohost] undoing a storage change failed; it is repaired by the next sweep:', undoError);
      }
      throw error;
    }
  }

  /** Intents not yet completed: changes in flight, or (before `reconcile`) interrupted ones. */
  pending(): Promise<RepoGitIntent[]> {
    return this.ctx.store(GitIntentStore).all();
  }

  /** Compares every row with storage: what no row claims, and rows without storage. */
  async check(): Promise<StorageCheck> {
    const rows = await this.ctx.store(ReposStore).allNames();
    const owners = await this.ctx.port(UsersPort).lowerNames([...new Set(rows.map((r) => r.owner_id))]);
    const known = new Map<string, RepoKey>();
    for (const row of rows) {
      const k = { owner: owners.get(row.owner_id)!, name: row.lower_name };
      known.set(keyText(k), k);
    }
    // Wikis (`<name>.wiki`) belong to their repositories: never unadopted repositories of their own, as in Forgejo.
    const stored = (await this.ctx.git.list()).filter((k) => !k.name.endsWith(WIKI_SUFFIX));
    const present = new Set(stored.map(keyText));
    return {
      unadopted: stored.filter((k) => !known.has(keyText(k))).sort((a, b) => keyText(a).localeCompare(keyText(b))),
      missing: [...known].filter(([text]) => !present.has(text)).map(([, k]) => k),
    };
  }

  /**
   * `owner/name` of storage that no row claims, for owners that exist (as Forgejo lists them), sorted.
   * `pattern` narrows the list: `owner/name` globs (`*`, `?`), or without a slash, text the name contains.
   */
  async listUnadopted(actor: Actor, options: Paging & { pattern?: string } = {}): Promise<Page<string>> {
    this.assertAdmin(actor);
    const { unadopted } = await this.check();
    const owners = new Map<string, boolean>();
    const users = this.ctx.port(UsersPort);
    const matches = patternMatcher(options.pattern ?? '');
    const names: string[] = [];
    for (const k of unadopted) {
      let exists = owners.get(k.owner);
      if (exists === undefined) owners.set(k.owner, (exists = (await users.byName(k.owner)) !== undefined));
      if (exists && matches(k)) names.push(keyText(k));
    }
    const page = clampPage(this.ctx.settings, options);
    return { items: names.slice(offsetOf(page), offsetOf(page) + page.limit), total: names.length };
  }

  /** Makes unclaimed storage a (private) repository of `ownerName`, as Forgejo's adoption does. */
  async adopt(actor: Actor, ownerName: string, name: string): Promise<void> {
    this.assertAdmin(actor);
    const { owner, k } = await this.unadopted(ownerName, name);
    if (isOrganization(owner)) throw new ForbiddenError('organizations cannot adopt repositories yet');
    const stored = await this.ctx.git.describe(k);
    const derived = await this.repos.deriveFromRefs(k, stored.headBranch || this.ctx.settings.repository.DEFAULT_BRANCH);
    const now = nowUnix();
    try {
      await this.ctx.transaction(async (tx) => {
        const row = await tx.store(ReposStore).insert({
          owner_id: owner.id,
          lower_name: k.name,
          name: k.name,
          object_format_name: stored.objectFormat,
          is_private: 1,
          ...derived,
          created_unix: now,
          updated_unix: now,
        });
        await tx.port(UsersPort).adjustRepoCount(owner.id, 1);
        tx.emit('repo.created', { repo: row, owner, actor });
      });
    } catch (error) {
      // Adopted (or created) by someone else meanwhile.
      if (await this.hasRow(k)) throw new NotFoundError();
      throw error;
    }
  }

  /** Deletes storage that no row claims. */
  async deleteUnadopted(actor: Actor, ownerName: string, name: string): Promise<void> {
    this.assertAdmin(actor);
    const { k } = await this.unadopted(ownerName, name);
    await this.ctx.git.remove(k);
    await this.ctx.git.remove(wikiRepoKey(k));
  }

  /** The owner and storage key of unclaimed storage, else NotFound (unknown owner, a row exists, no storage). */
  private async unadopted(ownerName: string, name: string) {
    const owner = await this.ctx.port(UsersPort).byName(ownerName);
    if (!owner) throw new NotFoundError();
    try {
      assertValidRepoName(name);
    } catch {
      throw new NotFoundError();
    }
    const k = key(owner.lower_name, name);
    if ((await this.ctx.store(ReposStore).findByOwnerAndName(owner.id, k.name)) || !(await this.ctx.git.exists(k))) throw new NotFoundError();
    return { owner, k };
  }

  private assertAdmin(actor: Actor): void {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
  }
}

/** Forgejo's unadopted search: `owner/repo` with glob wildcards, or a substring of `owner/repo`. */
function patternMatcher(pattern: string): (k: RepoKey) => boolean {
  const text = pattern.trim().toLowerCase();
  if (!text) return () => true;
  if (!text.includes('/')) return (k) => keyText(k).includes(text);
  const [ownerGlob, repoGlob] = text.split('/', 2) as [string, string];
  // `*` and `?` only, everything else literal: the glob dialect without its sets, alternatives and escapes.
  const compile = (glob: string) => Glob.compile([...glob].map((c) => (c === '*' || c === '?' ? c : `\\${c}`)).join(''));
  const ownerMatch = compile(ownerGlob || '*');
  const repoMatch = compile(repoGlob || '*');
  return (k) => ownerMatch.match(k.owner) && repoMatch.match(k.name);
}
