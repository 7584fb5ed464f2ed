import './events.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import { userActor, type Actor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { ConflictError, UnavailableError } from '../errors.js';
import { RefConflictError, type RefUpdate, type RepoKey } from '../git/index.js';
import { DatabaseLocks, LockTimeoutError, nowUnix, type HeldLock } from '../storage/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey, ReposService } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { IssuesPort } from '../issues/index.js';
import { PullMergeStore } from './merge-store.js';
import { MergedIssues } from './merge-close.js';

/** How long work after a merge's ref update waits out a busy resource before giving up (the repair finishes it then). */
const AFTER_MOVE_WAIT_MS = 60_000;

/**
 * Runs `work` (all-or-nothing: a transaction, or reads before one) again while it fails with UnavailableError,
 * with growing pauses, for up to `AFTER_MOVE_WAIT_MS`.
 */
async function untilNotBusy<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + AFTER_MOVE_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof UnavailableError) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt) * (0.5 + Math.random())));
    }
  }
}

/** Where a merge's marker ref lives while its database side is written (see `moveBase`). */
const MERGED_MARKER_PREFIX = 'refs/repohost/merged/';

/**
 * The base branch's move of a merge, made safe against a crash by a marker ref written with it, and the start-up
 * repair that reads the marker to finish a merge a crash interrupted (the `merge` intent). Both sides of the marker
 * live here: the ref's name is what ties them.
 */
export class PullMergePush {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Moves the base branch and records the result. Two intents come first: the push's (`sync`), and a `merge`
   * intent naming the pull request, whose marker ref (`refs/repohost/merged/{pull}/{merger}`) moves in the same
   * ref transaction as the base: after a crash between the ref update and the database, start-up finds the
   * marker and marks the pull request merged (`repairMerge`). The ref moves only if it is where the merge began
   * (else 409 "merge push out of date", nothing changed); `record` writes the pull request's side in one
   * transaction that also clears the merge intent; the push is then recorded like any other (`repo.pushed`).
   */
  async moveBase<T>(
    actor: Actor,
    access: RepoAccess,
    updates: RefUpdate[],
    merge: { pullId: number; mergerId: number },
    record: (tx: CoreTransaction) => Promise<T>,
  ): Promise<T> {
    const repos = this.ctx.service(ReposService);
    const intents = this.ctx.port(ReposPort);
    const key = repoKey(access.owner, access.repo);
    const zero = '0'.repeat(updates[0]!.newId.length);
    const marker: RefUpdate = { ref: `${MERGED_MARKER_PREFIX}${merge.pullId}/${merge.mergerId}`, oldId: zero, newId: updates[0]!.newId };
    const intent = await repos.beginPush(access);
    const mergeIntent = await intents.beginIntent('merge', key, merge.pullId);
    try {
      await this.ctx.git.updateRefs(key, [...updates, marker]);
    } catch (error) {
      await intents.endIntent(mergeIntent);
      if (error instanceof RefConflictError) {
        await intents.endIntent(intent);
        throw new ConflictError('merge push out of date');
      }
      await repos.resyncFromRefs(access.repo, key, intent);
      throw error;
    }
    let result: T;
    // The refs moved: the merge has happened, and a busy resource (the git process pool, the database) is waited
    // for here rather than answered 503, which would tell the client to try a merge that is done.
    try {
      result = await untilNotBusy(() =>
        this.ctx.transaction(async (tx) => {
          await tx.port(ReposPort).lockIssueCounts(access.repo.id);
          const done = await record(tx);
          await tx.port(ReposPort).endIntent(mergeIntent);
          return done;
        }),
      );
    } finally {
      // Whatever happened to the pull request's side, the refs moved: the repository's bookkeeping follows them.
      await untilNotBusy(() => repos.recordPush(actor, access, updates, intent));
    }
    await this.dropMarker(key, marker.ref, marker.newId);
    return result;
  }

  /** Removes a merge marker ref (a leftover one is harmless: the next repair of that pull request removes it). */
  private async dropMarker(key: RepoKey, ref: string, id: string): Promise<void> {
    try {
      await this.ctx.git.updateRefs(key, [{ ref, oldId: id, newId: '0'.repeat(id.length) }]);
    } catch (error) {
      console.error(`[repohost] removing ${ref} failed:`, error);
    }
  }

  /**
   * Start-up repair of a merge a crash interrupted (`merge` intent of pull request `pullId`): when the marker ref
   * shows the base branch moved (and still contains the merge), the pull request is marked merged by the merger
   * the marker names and its issue closed, as the merge would have; the marker goes either way. It holds the pull
   * request's lock (`pull:<id>`, as merges and updates do, `PullWorkQueue`) when that is free within a moment, and
   * commits only while it still holds it; 'busy' when another process's merge or update of it holds the lock: the
   * intent is then left for the next sweep, as the storage repairs leave theirs.
   */
  async repairMerge(pullId: number): Promise<boolean | 'busy'> {
    let lock: HeldLock;
    try {
      lock = await this.ctx.service(DatabaseLocks).acquire(`pull:${pullId}`, { waitMs: 1000 });
    } catch (error) {
      if (error instanceof LockTimeoutError) return 'busy';
      throw error;
    }
    try {
      return await this.repairMergeHolding(pullId, lock);
    } finally {
      await lock.release();
    }
  }

  private async repairMergeHolding(pullId: number, lock: HeldLock): Promise<boolean> {
    const row = await this.ctx.store(PullMergeStore).pullById(pullId);
    const repo = row && (await this.ctx.port(ReposPort).byId(row.base_repo_id));
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    if (!row || !repo || !owner) return false;
    const key = repoKey(owner, repo);
    const markers = await this.ctx.git.listRefs(key, `${MERGED_MARKER_PREFIX}${pullId}/`);
    let repaired = false;
    for (const marker of markers) {
      const mergerId = Number(marker.ref.slice(marker.ref.lastIndexOf('/') + 1));
      const fresh = await this.ctx.store(PullMergeStore).pullById(pullId);
      const baseRef = `refs/heads/${row.base_branch}`;
      const baseSha = (await this.ctx.git.readRefs(key, [baseRef])).get(baseRef);
      const merger = Number.isSafeInteger(mergerId) ? await this.ctx.port(UsersPort).byId(mergerId) : undefined;
      const landed = baseSha !== undefined && (baseSha === marker.id || (await this.ctx.git.isAncestor(key, marker.id, baseSha)));
      const issue = fresh && (await this.ctx.port(IssuesPort).byId(fresh.issue_id));
      if (fresh && fresh.has_merged === 0 && landed && merger && issue) {
        const actor = userActor(merger);
        const access = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
        await this.ctx.transaction(async (tx) => {
          await tx.port(ReposPort).lockIssueCounts(repo.id);
          await lock.confirm(tx);
          const merged = await tx.store(PullMergeStore).markMerged(fresh.id, {
            merged_commit_id: marker.id,
            merger_id: merger.id,
            merged_unix: nowUnix(),
            merge_base: fresh.merge_base,
            status: fresh.status,
          });
          if (!merged) return;
          await tx.store(PullMergeStore).unschedule(fresh.id);
          const closed = await this.ctx.service(MergedIssues).closeAsMerged(tx, merger, access, issue);
          tx.emit('pull.merged', { actor, repo, owner, issue: closed, pull: merged });
        });
        repaired = true;
      }
      await this.dropMarker(key, marker.ref, marker.id);
    }
    return repaired;
  }

}
