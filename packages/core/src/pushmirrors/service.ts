import { randomInt } from 'node:crypto';
import type { CoreContext, CoreTransaction } from '../context.js';
import { isSiteAdmin, SYSTEM, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { BadRequestError, ForbiddenError, LockedError, NotFoundError, NotSupportedError, ValidationError } from '../errors.js';
import { JobsService, type JobRun } from '../jobs/index.js';
import '../jobs/index.js';
import { GoDurationError, parseGoDuration, parseGoDurationNanos } from '../go-duration.js';
import {
  checkRemoteAddress,
  decryptRemoteCredentials,
  encryptRemoteCredentials,
  rekeyRemoteCredentials,
  followRemoteRedirects,
  gitRemoteOptions,
  redactCredentials,
  RemoteAddressError,
  type RemoteCredentials,
} from '../remote/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { compileGlob } from '../glob.js';
import { CreatePushMirrorOptionSchema, type CreatePushMirrorOption } from './schemas.js';
import { LfsService } from '../lfs/index.js';
import { PushMirrorsStore } from './store.js';
import type { PushMirror } from './tables.js';
import { acceptInput } from '../validation/index.js';
import { countRekey, emptyRekeyCounts, forEachRowInBatches, type RekeyCounts, type SecretRekey } from '../security/index.js';

declare module '../jobs/kinds.js' {
  interface JobPayloads {
    /** Push one push mirror now (on demand, after a push with `sync_on_commit`, or when its interval elapsed). */
    'pushmirror.sync': { mirrorId: number };
  }
}

/** Forgejo's `reqAdmin` refusal. */
const NOT_REPO_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';
/** Forgejo's refusals while `[mirror] ENABLED` is false, and (for new ones) `DISABLE_NEW_PUSH` is true. */
const MIRRORS_DISABLED = 'Mirror feature is disabled';
const NEW_PUSH_DISABLED = 'push mirror is disabled';
/** Forgejo's column is VARCHAR(2048). */
const MAX_ADDRESS_LENGTH = 2048;
const MAX_BRANCH_FILTER_LENGTH = 2048;
/** Mirrors `enqueueDue` queues at most per call (the next run takes the rest). */
const DUE_BATCH = 500;
const REMOTE_NAME_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Forgejo's `remote_mirror_` and ten random letters and digits. */
/**
 * Forgejo answers a refused push mirror address unlike a migration's (its `HandleRemoteAddressError`): 400 with
 * "Invalid mirror protocol" or "Invalid Url ", and "Permission denied" for a host or path it may not use, which
 * Forgejo sends as 401; here it is the spec's 403 for this operation (a 401 would make clients ask for credentials).
 */
function pushMirrorAddressError(error: unknown): unknown {
  if (!(error instanceof RemoteAddressError)) return error;
  switch (error.problem) {
    case 'protocol':
      return new BadRequestError('Invalid mirror protocol');
    case 'url':
      return new BadRequestError('Invalid Url ');
    case 'invalidPath':
      return new BadRequestError('Unknown error');
    default:
      return new ForbiddenError('Permission denied');
  }
}

function newRemoteName(): string {
  let suffix = '';
  for (let i = 0; i < 10; i++) suffix += REMOTE_NAME_ALPHABET[randomInt(REMOTE_NAME_ALPHABET.length)];
  return `remote_mirror_${suffix}`;
}

/** The job key of a mirror: one queued push per mirror at most, and never two at once. */
function syncKey(mirrorId: number): string {
  return `push_mirror:${mirrorId}`;
}

/**
 * The branches a filter selects: comma-separated globs (Forgejo's glob syntax, `{a,b}` too); undefined for every
 * branch; null when the filter does not compile.
 */
export function branchFilterMatcher(filter: string): ((branch: string) => boolean) | undefined | null {
  const trimmed = filter.trim();
  if (trimmed === '') return undefined;
  const glob = compileGlob(`{${trimmed.split(',').map((p) => p.trim()).join(',')}}`);
  return glob ? (branch) => glob.match(branch) : null;
}

/** Go's `time.ParseDuration` error text, as Forgejo answers it. */


/** git's words without its `exit status N - ` noise (as Forgejo strips it) and without the credentials. */
function pushErrorText(error: unknown, credentials: RemoteCredentials | undefined): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactCredentials(text.replace(/exit status \d+ - /g, ''), credentials).slice(0, 4000);
}

/**
 * A repository's push mirrors (`/repos/{owner}/{repo}/push_mirrors…`), as Forgejo has them: remotes its branches
 * and tags are pushed to (forced, deleting there what was deleted here), on demand (`push_mirrors-sync`), after each
 * push when `sync_on_commit`, and every `interval`. Pushes run as `pushmirror.sync` jobs; each checks the address
 * again (the settings may have changed since it was added), pushes with the stored credentials handed to git through
 * its environment, and records `last_update` and `last_error`. Only repository administrators see or change them.
 */
export class PushMirrorsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): PushMirrorsStore {
    return this.ctx.store(PushMirrorsStore);
  }

  /** Push mirrors go with their repository; a push queues the mirrors that sync on commit, in its transaction. */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      await tx.store(PushMirrorsStore).deleteOfRepo(payload.repo.id);
    });
    this.ctx.events.withinTransaction('repo.pushed', async ({ payload }, tx) => {
      if (!this.ctx.settings.mirror.ENABLED) return;
      const ids = await tx.store(PushMirrorsStore).syncOnCommitIds(payload.repo.id);
      for (const mirrorId of ids) await this.jobs.enqueue('pushmirror.sync', { mirrorId }, { key: syncKey(mirrorId), tx });
    });
  }

  private get jobs(): JobsService {
    return this.ctx.service(JobsService);
  }

  /** Moves the push mirrors' stored credentials to a new key, inside the caller's transaction. */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(PushMirrorsStore);
    const counts = emptyRekeyCounts();
    await forEachRowInBatches(
      (after, limit) => store.credentialsAfter(after, limit),
      async (mirror) => {
        const stored = countRekey(counts, rekeyRemoteCredentials(rekey, mirror.credentials), `credentials of push mirror ${mirror.id} (repository ${mirror.repo_id})`);
        if (stored !== undefined) await store.setCredentials(mirror.id, stored);
      },
    );
    return counts;
  }

  // ---- rights ----

  /** Forgejo's `reqAdmin` (before `reqToken`, so the anonymous get a 403 too), then the feature switch. */
  private assertAdmin(actor: Actor, access: RepoAccess): void {
    if (!isSiteAdmin(actor) && access.mode < AccessMode.Admin) throw new ForbiddenError(NOT_REPO_ADMIN);
  }

  private assertEnabled(): void {
    if (!this.ctx.settings.mirror.ENABLED) throw new BadRequestError(MIRRORS_DISABLED);
  }

  /** Changes: administrators, on a repository that is not archived (Forgejo's `mustNotBeArchived`). */
  private assertChanger(actor: Actor, access: RepoAccess): void {
    this.assertAdmin(actor, access);
    if (access.repo.is_archived === 1) throw new LockedError('repo is archived');
    this.assertEnabled();
  }

  /**
   * A backend that cannot push to remotes (the in-memory one) says so now, as a 501, rather than in every
   * `last_error`: asked with a signal already aborted, a backend that can push returns before starting git.
   */
  private async assertBackendPushes(access: RepoAccess): Promise<void> {
    const probe = new AbortController();
    probe.abort();
    try {
      await this.ctx.git.pushMirror(repoKey(access.owner, access.repo), { url: '', config: [], env: {}, timeoutMs: 1, signal: probe.signal });
    } catch (error) {
      if (error instanceof NotSupportedError) throw error;
    }
  }

  // ---- reads ----

  /** The repository's push mirrors, oldest first. */
  async list(actor: Actor, access: RepoAccess, paging?: Paging): Promise<Page<PushMirror>> {
    this.assertAdmin(actor, access);
    this.assertEnabled();
    return this.store.list(access.repo.id, clampPage(this.ctx.settings, paging));
  }

  /** The push mirror of that remote name; 404 when there is none. */
  async get(actor: Actor, access: RepoAccess, remoteName: string): Promise<PushMirror> {
    this.assertAdmin(actor, access);
    this.assertEnabled();
    const mirror = remoteName ? await this.store.byName(access.repo.id, remoteName) : undefined;
    if (!mirror) throw new NotFoundError('push mirror does not exist');
    return mirror;
  }

  // ---- changes ----

  /**
   * Adds a push mirror (Forgejo's `CreatePushMirror`). The remote is not contacted: the address is checked as a
   * migration's is (a name that does not resolve now passes on its name, as every push checks it again), and the
   * first push happens on demand, on commit or when the interval elapses.
   */
  async add(actor: Actor, access: RepoAccess, input: CreatePushMirrorOption): Promise<PushMirror> {
    const option = acceptInput(CreatePushMirrorOptionSchema, input);
    this.assertChanger(actor, access);
    if (this.ctx.settings.mirror.DISABLE_NEW_PUSH) throw new BadRequestError(NEW_PUSH_DISABLED);
    const intervalText = option.interval ?? '';
    let interval: number;
    try {
      interval = Math.round(parseGoDurationNanos(intervalText) / 1e9);
    } catch (error) {
      // Forgejo answers Go's own words, with a 400.
      if (error instanceof GoDurationError) throw new BadRequestError(error.message);
      throw error;
    }
    const minimum = parseGoDuration(this.ctx.settings.mirror.MIN_INTERVAL) ?? 600;
    if (interval !== 0 && interval < minimum) {
      throw new BadRequestError(`interval must be 0 (off) or at least ${this.ctx.settings.mirror.MIN_INTERVAL}`);
    }
    // SSH push mirrors need a key pair and an ssh:// remote, which the remote checks do not offer: Forgejo's
    // answer when it has no SSH client.
    if (option.use_ssh) throw new BadRequestError('SSH authentication not available.');
    const address = option.remote_address ?? '';
    if (address.length > MAX_ADDRESS_LENGTH) throw new ValidationError('remote_address', `must be at most ${MAX_ADDRESS_LENGTH} characters`);
    const branchFilter = (option.branch_filter ?? '').trim();
    if (branchFilter.length > MAX_BRANCH_FILTER_LENGTH || branchFilterMatcher(branchFilter) === null) {
      throw new ValidationError('branch_filter', 'invalid branch filter');
    }
    const checked = await checkRemoteAddress(
      this.ctx.settings,
      actor,
      { address, username: option.remote_username, password: option.remote_password },
      { acceptUnresolved: true },
    ).catch((error: unknown) => {
      throw pushMirrorAddressError(error);
    });
    // Pushing into a folder of this server is never offered, whoever asks.
    if (checked.local) throw pushMirrorAddressError(new RemoteAddressError('localDenied'));
    await this.assertBackendPushes(access);
    return this.store.insert({
      repo_id: access.repo.id,
      remote_name: newRemoteName(),
      remote_address: checked.sanitized,
      credentials: encryptRemoteCredentials(this.ctx.settings.security.SECRET_KEY, checked.credentials),
      branch_filter: branchFilter,
      sync_on_commit: option.sync_on_commit ? 1 : 0,
      interval_seconds: interval,
      created_unix: nowUnix(),
    });
  }

  /** Removes the push mirror of that remote name; 404 when there is none. */
  async delete(actor: Actor, access: RepoAccess, remoteName: string): Promise<void> {
    this.assertChanger(actor, access);
    if (!remoteName || !(await this.store.delete(access.repo.id, remoteName))) throw new NotFoundError('push mirror does not exist');
  }

  /** Queues a push of every push mirror of the repository (`push_mirrors-sync`); returns the jobs' ids. */
  async syncAll(actor: Actor, access: RepoAccess): Promise<number[]> {
    this.assertChanger(actor, access);
    const ids = await this.store.idsOf(access.repo.id);
    if (ids.length > 0) await this.assertBackendPushes(access);
    return this.ctx.transaction(async (tx) => {
      const jobs: number[] = [];
      for (const mirrorId of ids) jobs.push((await this.jobs.enqueue('pushmirror.sync', { mirrorId }, { key: syncKey(mirrorId), tx })).id);
      return jobs;
    });
  }

  /**
   * Queues the mirrors whose interval elapsed since their last push (the `update_mirrors` cron task), skipping
   * archived repositories as Forgejo does; returns how many were queued.
   */
  async enqueueDue(): Promise<number> {
    if (!this.ctx.settings.mirror.ENABLED) return 0;
    const due = await this.store.due(nowUnix(), DUE_BATCH);
    if (due.length === 0) return 0;
    const repos = new Map((await this.ctx.port(ReposPort).byIds([...new Set(due.map((d) => d.repo_id))])).map((r) => [r.id, r]));
    const queued = due.filter((d) => {
      const repo = repos.get(d.repo_id);
      return repo !== undefined && repo.is_archived !== 1;
    });
    if (queued.length === 0) return 0;
    await this.ctx.transaction(async (tx) => {
      for (const { id } of queued) await this.jobs.enqueue('pushmirror.sync', { mirrorId: id }, { key: syncKey(id), tx });
    });
    return queued.length;
  }

  // ---- the job ----

  /**
   * Pushes one mirror (the `pushmirror.sync` job). A failed push is recorded in `last_error` (without credentials)
   * and ends the job, as Forgejo records it and waits for the next trigger; a mirror deleted meanwhile is skipped.
   */
  async handleSync(run: JobRun<{ mirrorId: number }>): Promise<void> {
    if (!this.ctx.settings.mirror.ENABLED) return;
    const mirror = await this.store.byId(run.payload.mirrorId);
    if (!mirror) return;
    const repo = await this.ctx.port(ReposPort).byId(mirror.repo_id);
    if (!repo) return;
    const owner = await this.ctx.port(UsersPort).byId(repo.owner_id);
    if (!owner) return;
    await run.progress(0, 1, `pushing to ${mirror.remote_address}`);
    const error = await this.push(mirror, repo, owner, run.signal);
    await this.store.recordAttempt(mirror.id, nowUnix(), error);
    await run.progress(1, 1, error === '' ? 'pushed' : 'failed');
  }

  /** One push; '' when it went through, else what went wrong (credentials removed). */
  private async push(mirror: PushMirror, repo: Repository, owner: { lower_name: string }, signal: AbortSignal): Promise<string> {
    const settings = this.ctx.settings;
    const credentials = decryptRemoteCredentials(settings.security.SECRET_KEY, mirror.credentials);
    if (mirror.credentials !== '' && !credentials) return 'the stored credentials cannot be decrypted ([security] SECRET_KEY changed?)';
    const branches = branchFilterMatcher(mirror.branch_filter);
    if (branches === null) return 'invalid branch filter';
    try {
      // Checked again (settings change; names resolve elsewhere) and pinned to the address checked.
      const checked = await checkRemoteAddress(settings, SYSTEM, {
        address: mirror.remote_address,
        username: credentials?.username,
        password: credentials?.password,
      });
      if (checked.local) throw new RemoteAddressError('protocol');
      const timeoutMs = Math.max(1, settings['git.timeout'].MIRROR) * 1000;
      const remote = await followRemoteRedirects(settings, SYSTEM, checked, { timeoutMs, service: 'git-receive-pack', signal });
      const options = gitRemoteOptions(remote, settings);
      await this.ctx.git.pushMirror(repoKey(owner, repo), {
        url: remote.url,
        config: options.args,
        env: options.env,
        branches,
        timeoutMs,
        signal,
      });
      // Then the LFS objects, to the remote's LFS API, as Forgejo pushes them while its LFS server is on.
      await this.ctx.service(LfsService).pushToRemote({ repoId: repo.id, actor: SYSTEM, remote, timeoutMs, signal });
      return '';
    } catch (error) {
      return pushErrorText(error, credentials) || 'push failed';
    }
  }
}
