/**
 * Pull mirrors, as Forgejo keeps them: a repository that follows a remote one. Its row in `mirror` holds the
 * remote (address without credentials, credentials encrypted), the interval and when the next sync is due. A sync
 * is a durable job (`mirror.sync`, one at a time per repository): the address is checked again (settings may have
 * changed, a name may resolve elsewhere now), git fetches branches and tags (pruning when asked), and the
 * repository's bookkeeping follows the refs through the path pushes take, so pull requests, feeds and webhooks
 * see a mirror's new commits as they see pushed ones.
 */
import './events.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import { BadRequestError, ForbiddenError, ValidationError } from '../errors.js';
import { userActor, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import type { RefUpdate, RepoKey } from '../git/index.js';
import type { JobRun } from '../jobs/index.js';
import { JobsService } from '../jobs/index.js';
import { QuotaService } from '../quota/index.js';
import { nowUnix } from '../storage/index.js';
import { ReposService, repoKey, type RepoAccess } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { checkRemoteAddress, decryptRemoteCredentials, encryptRemoteCredentials, rekeyRemoteCredentials, type CheckedRemote } from '../remote/index.js';
import { LfsService } from '../lfs/index.js';
import { countRekey, emptyRekeyCounts, forEachRowInBatches, type RekeyCounts, type SecretRekey } from '../security/index.js';
import { describeRemoteFailure, prepareRemote } from '../remote/index.js';
import { parseMirrorInterval, settingNanos } from './interval.js';
import { MirrorsStore } from './store.js';
import type { Mirror } from './tables.js';

declare module '../jobs/kinds.js' {
  interface JobPayloads {
    /** Fetch a pull mirror from its remote. */
    'mirror.sync': { repoId: number };
  }
}

/** The refs a mirror follows: branches and tags, each replaced by the remote's (refs/pull and others stay ours). */
export const MIRROR_REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'] as const;
const MIRRORED_PREFIXES = ['refs/heads/', 'refs/tags/'];
const ZERO_ID = /^0+$/;

/** What the API shows of a mirror on its repository (`mirror_interval`, `mirror_updated`). */
export interface MirrorView {
  interval_seconds: number;
  updated_unix: number;
}

/** A repository with its mirror settings, when it is a pull mirror (see `withMirrors`). */
export type WithMirror<T extends RepoAccess> = T & { mirror?: MirrorView };

/** Forgejo's message for an interval below `[mirror] MIN_INTERVAL` on edit. */
const editIntervalMessage = (value: string, min: string) => `invalid mirror interval: ${value} is below minimum interval: ${min}`;

export class MirrorsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): MirrorsStore {
    return this.ctx.store(MirrorsStore);
  }

  /** Moves the mirrors' stored remote credentials to a new key, inside the caller's transaction. */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(MirrorsStore);
    const counts = emptyRekeyCounts();
    await forEachRowInBatches(
      (after, limit) => store.credentialsAfter(after, limit),
      async (mirror) => {
        const stored = countRekey(counts, rekeyRemoteCredentials(rekey, mirror.remote_credentials), `credentials of the mirror repository ${mirror.repo_id}`);
        if (stored !== undefined) await store.update(mirror.repo_id, { remote_credentials: stored });
      },
    );
    return counts;
  }

  /** The mirror row of a repository, if it is a pull mirror. */
  find(repoId: number): Promise<Mirror | undefined> {
    return this.store.findByRepo(repoId);
  }

  /** The repositories with their mirror settings loaded (one query for the page). */
  async withMirrors<T extends RepoAccess>(items: readonly T[]): Promise<WithMirror<T>[]> {
    const ids = items.filter((i) => i.repo.is_mirror === 1).map((i) => i.repo.id);
    if (ids.length === 0) return [...items];
    const mirrors = await this.store.findByRepos(ids);
    return items.map((item) => {
      const mirror = mirrors.get(item.repo.id);
      return mirror ? { ...item, mirror: { interval_seconds: Number(mirror.interval_seconds), updated_unix: Number(mirror.updated_unix) } } : item;
    });
  }

  /** `[mirror] DEFAULT_INTERVAL` in seconds. */
  defaultIntervalSeconds(): number {
    return Math.max(0, Math.floor(settingNanos(this.ctx.settings.mirror.DEFAULT_INTERVAL, '8h') / 1e9));
  }

  /**
   * Writes the mirror row of a repository made by a migration (in its completing transaction); `lfs`: its syncs
   * fetch LFS objects too, from `endpoint` when set.
   */
  async insertFor(tx: CoreTransaction, repoId: number, remote: Pick<CheckedRemote, 'sanitized' | 'credentials'>, intervalSeconds: number, lfs?: { endpoint: string }): Promise<Mirror> {
    const now = nowUnix();
    const store = tx.store(MirrorsStore);
    // A migration that ran again after a crash may have written it already.
    await store.deleteByRepo(repoId);
    return store.insert({
      repo_id: repoId,
      interval_seconds: intervalSeconds,
      enable_prune: 1,
      updated_unix: now,
      next_update_unix: intervalSeconds > 0 ? now + intervalSeconds : 0,
      remote_address: remote.sanitized,
      remote_credentials: encryptRemoteCredentials(this.ctx.settings.security.SECRET_KEY, remote.credentials),
      ...(lfs && { lfs_enabled: 1, lfs_endpoint: lfs.endpoint }),
    });
  }

  /**
   * `PATCH /repos/{owner}/{repo}` with `mirror_interval` and/or `enable_prune`: each one sent is applied, the other
   * stays (a new interval also moves the next sync). A repository that is not a mirror ignores both, as Forgejo
   * does. Runs in the edit's transaction, after `assertEditable` passed.
   */
  async applyEdit(tx: CoreTransaction, access: RepoAccess, input: { mirror_interval?: string; enable_prune?: boolean }): Promise<void> {
    if (input.mirror_interval === undefined && input.enable_prune === undefined) return;
    if (access.repo.is_mirror !== 1) return;
    const changes: { interval_seconds?: number; next_update_unix?: number; enable_prune?: number } = {};
    if (input.mirror_interval !== undefined) {
      const seconds = parseMirrorInterval(input.mirror_interval, this.ctx.settings.mirror.MIN_INTERVAL, editIntervalMessage);
      changes.interval_seconds = seconds;
      changes.next_update_unix = seconds > 0 ? nowUnix() + seconds : 0;
    }
    if (input.enable_prune !== undefined) changes.enable_prune = input.enable_prune ? 1 : 0;
    await tx.store(MirrorsStore).update(access.repo.id, changes);
  }

  /** Checks an edit's mirror fields before anything changes: 422 for an interval that does not parse or is too short. */
  assertEditable(access: RepoAccess, input: { mirror_interval?: string }): void {
    if (access.repo.is_mirror !== 1 || input.mirror_interval === undefined) return;
    parseMirrorInterval(input.mirror_interval, this.ctx.settings.mirror.MIN_INTERVAL, editIntervalMessage);
  }

  /**
   * `POST /repos/{owner}/{repo}/mirror-sync`: queues a sync (one queued per repository at most; they run one at a
   * time). 403 without write access to the code or when the repository is not a pull mirror; 413 over the git
   * quota; 400 when mirrors are disabled, as Forgejo answers.
   */
  async requestSync(access: RepoAccess): Promise<void> {
    if (unitMode(access, 'repo.code') < AccessMode.Write) throw new ForbiddenError('Must have write access');
    // A sync brings git data in: refused (413) while the owner is over its git quota, as Forgejo's route is.
    await this.ctx.service(QuotaService).assertCanWrite(access.owner, 'size:git:all');
    if (!this.ctx.settings.mirror.ENABLED) throw new BadRequestError('Mirror feature is disabled');
    const mirror = access.repo.is_mirror === 1 ? await this.store.findByRepo(access.repo.id) : undefined;
    if (!mirror) throw new ForbiddenError('Repository is not a mirror');
    await this.ctx.service(JobsService).enqueue('mirror.sync', { repoId: access.repo.id }, { key: syncKey(access.repo.id) });
  }

  /**
   * Queues a sync of every mirror whose interval has passed (the `update_mirrors` cron task), moving each one's
   * next update on at once so the next run does not queue it again. Returns how many were queued.
   */
  async enqueueDue(): Promise<number> {
    if (!this.ctx.settings.mirror.ENABLED) return 0;
    const now = nowUnix();
    // `[cron.update_mirrors] PULL_LIMIT` per run (0 or less: no limit), as Forgejo; the next run takes the rest.
    const limit = this.ctx.settings['cron.update_mirrors'].PULL_LIMIT;
    const due = await this.store.due(now, limit > 0 ? limit : 1_000_000);
    for (const mirror of due) {
      await this.ctx.transaction(async (tx) => {
        const interval = Number(mirror.interval_seconds);
        await tx.store(MirrorsStore).update(mirror.repo_id, { next_update_unix: interval > 0 ? now + interval : 0 });
        await this.ctx.service(JobsService).enqueue('mirror.sync', { repoId: mirror.repo_id }, { key: syncKey(mirror.repo_id), tx });
      });
    }
    return due.length;
  }

  /**
   * The `mirror.sync` job: fetch, then record what moved. A repository that is gone or no longer a mirror is
   * nothing to do. A failure is recorded on the mirror (credentials removed) and fails the job with that text.
   */
  async handleSync(run: JobRun<{ repoId: number }>): Promise<void> {
    const repoId = Number(run.payload.repoId);
    const mirror = await this.store.findByRepo(repoId);
    const repo = mirror && (await this.ctx.port(ReposPort).byId(repoId));
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    if (!mirror || !repo || !owner || repo.is_mirror !== 1) return;
    const settings = this.ctx.settings;
    const credentials = decryptRemoteCredentials(settings.security.SECRET_KEY, mirror.remote_credentials);
    const key = repoKey(owner, repo);
    // The repository's owner is who pulls, as in Forgejo: its rights decide whether a local path may still be read.
    const actor = userActor(owner);
    const repos = this.ctx.service(ReposService);
    const access: RepoAccess = { repo, owner, mode: AccessMode.Owner };
    let intent: number | undefined;
    try {
      const timeoutMs = Math.max(1, settings['git.timeout'].MIRROR) * 1000;
      await run.progress(0, 0, 'checking the remote');
      const deadline = Date.now() + timeoutMs;
      const prepared = await prepareRemote(settings, actor, { address: mirror.remote_address, username: credentials?.username, password: credentials?.password }, { timeoutMs, signal: run.signal });
      const before = await this.mirroredRefs(key);
      intent = await repos.beginPush(access);
      await run.progress(0, 0, 'fetching');
      // The probe and the fetch share `[git.timeout] MIRROR`.
      const git = { ...prepared.git, timeoutMs: Math.max(1000, deadline - Date.now()) };
      await this.ctx.git.fetchRemote(key, git, { refspecs: MIRROR_REFSPECS, prune: mirror.enable_prune === 1 });
      const after = await this.mirroredRefs(key);
      const updates = refChanges(before, after);
      // Clears the intent; announces `repo.pushed` when refs moved.
      await repos.recordPush(actor, access, updates, intent);
      intent = undefined;
      if (mirror.lfs_enabled === 1) {
        await run.progress(0, 0, 'fetching LFS objects');
        const remote = await checkRemoteAddress(settings, actor, { address: mirror.remote_address, username: credentials?.username, password: credentials?.password });
        const lfsRequest = { repoId, key, actor, remote, endpoint: mirror.lfs_endpoint, timeoutMs: Math.max(1000, deadline - Date.now()), signal: run.signal };
        // As Forgejo: objects that could not be fetched leave the git sync standing (the next sync tries again).
        await this.ctx.service(LfsService).fetchFromRemote(lfsRequest).catch((error: unknown) => {
          console.error(`[repohost] mirror ${repoId}: LFS objects: ${describeRemoteFailure(error, credentials, 'Mirror sync')}`);
        });
      }
      await this.finishSync(repoId, '', { repo, owner, actor, updates });
    } catch (error) {
      const message = describeRemoteFailure(error, credentials, 'Mirror sync');
      if (intent !== undefined) await repos.resyncFromRefs(repo, key, intent).catch(() => undefined);
      await this.finishSync(repoId, message).catch(() => undefined);
      throw new Error(message);
    }
  }

  /** Records a sync's end: when, the error ('' for none), and the next sync after the interval as it is now. */
  private async finishSync(
    repoId: number,
    error: string,
    synced?: { repo: RepoAccess['repo']; owner: RepoAccess['owner']; actor: Actor; updates: RefUpdate[] },
  ): Promise<void> {
    const now = nowUnix();
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(MirrorsStore);
      // The interval may have been edited while the fetch ran.
      const current = await store.findByRepo(repoId);
      if (!current) return;
      const interval = Number(current.interval_seconds);
      const mirror = await store.update(repoId, { updated_unix: now, next_update_unix: interval > 0 ? now + interval : 0, last_error: error.slice(0, 4000) });
      if (mirror && synced) tx.emit('mirror.synced', { ...synced, mirror });
    });
  }

  /** The branches and tags of a repository, by full name. */
  private async mirroredRefs(key: RepoKey): Promise<Map<string, string>> {
    const refs = new Map<string, string>();
    for (const prefix of MIRRORED_PREFIXES) {
      for (const entry of await this.ctx.git.listRefs(key, prefix)) refs.set(entry.ref, entry.id);
    }
    return refs;
  }

  /**
   * `POST /repos/{owner}/{repo}/convert`: the mirror becomes an ordinary repository (one way). Repository
   * administrators may; 422 when it is not a mirror.
   */
  async convertToNormal(actor: Actor, access: RepoAccess): Promise<RepoAccess> {
    if (access.mode < AccessMode.Admin) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
    if (access.repo.is_mirror !== 1) throw new ValidationError('', 'Repository is not a mirror');
    const repo = await this.ctx.transaction(async (tx) => {
      const updated = await tx.port(ReposPort).stopMirroring(access.repo.id, nowUnix());
      await tx.store(MirrorsStore).deleteByRepo(access.repo.id);
      if (updated) tx.emit('repo.edited', { repo: updated, previous: access.repo, owner: access.owner, actor });
      return updated;
    });
    return { ...access, repo: repo ?? { ...access.repo, is_mirror: 0 } };
  }
}

/** The job key that keeps one repository's syncs apart. */
export function syncKey(repoId: number): string {
  return `repo:${repoId}`;
}

/** The ref changes between two snapshots, as a push reports them (zero ids for created and deleted refs). */
export function refChanges(before: Map<string, string>, after: Map<string, string>): RefUpdate[] {
  const sample = [...before.values(), ...after.values()][0] ?? '';
  const zero = '0'.repeat(sample.length === 64 ? 64 : 40);
  const updates: RefUpdate[] = [];
  for (const [ref, newId] of after) {
    const oldId = before.get(ref);
    if (oldId !== newId) updates.push({ ref, oldId: oldId ?? zero, newId });
  }
  for (const [ref, oldId] of before) if (!after.has(ref)) updates.push({ ref, oldId, newId: zero });
  return updates.filter((u) => !(ZERO_ID.test(u.oldId) && ZERO_ID.test(u.newId)));
}
