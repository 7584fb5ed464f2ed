/**
 * `POST /repos/migrate`, as Forgejo runs it: everything that can be refused is refused first (owner, rights,
 * quota, limits, the remote address, the interval); then the repository row is written in Forgejo's "being
 * migrated" state together with a durable `migrate.run` job, and the caller waits for the job (Forgejo's API
 * migration answers when it is done). The job clones branches and tags from the remote (checked again, redirects
 * followed only where the settings allow, bounded by `[git.timeout] MIGRATE`), derives the repository's
 * bookkeeping from the refs, imports content from a Gitea/Forgejo remote when asked, and marks the repository
 * ready (and a pull mirror, when asked). A job that fails removes the half-made repository, so nothing of it stays
 * visible; one interrupted by a crash runs again at start-up, and one that ended without finishing is cleaned
 * there (`repairInterrupted`).
 */
import type { CoreContext, CoreTransaction } from '../context.js';
import { countRekey, emptyRekeyCounts, type RekeyCounts, type SecretRekey } from '../security/index.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { actorUser, isSiteAdmin, SYSTEM, userActor, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { OrgsService } from '../orgs/index.js';
import { QuotaService } from '../quota/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { JobAbortedError, JobsService, type Job, type JobRun } from '../jobs/index.js';
import { ReposService, repoKey, type RepoAccess } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { assertValidRepoName } from '../repos/index.js';
import { defaultUnits, serializeUnits } from '../repos/index.js';
import { RepoStatus, RepoWikiStorage, wikiBranchOf } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { MirrorsService } from '../mirrors/index.js';
import { LfsService } from '../lfs/index.js';
import { notSupported } from '../git/index.js';
import { parseMirrorInterval } from '../mirrors/index.js';
import { checkRemoteAddress, decryptRemoteCredentials, encryptRemoteCredentials, rekeyRemoteCredentials, type CheckedRemote, type RemoteCredentials } from '../remote/index.js';
import { describeRemoteFailure, prepareRemote } from '../remote/index.js';
import { importRepositoryContent, type ImportItems } from './gitea/import.js';
import { MigrateRepoOptionsSchema, type MigrateRepoOptions, type MigrateService as MigrateServiceName } from './schemas.js';
import { MigrationsStore } from './store.js';

/** What a `migrate.run` job carries: credentials only encrypted, the address without them. */
export interface MigrateJobPayload {
  repoId: number;
  doerId: number;
  /** The clone address without credentials. */
  address: string;
  /** `encryptRemoteCredentials` of the basic credentials ('' for none). */
  credentials: string;
  /** The remote API token, encrypted the same way ('' for none). */
  token: string;
  service: MigrateServiceName;
  mirror: boolean;
  intervalSeconds: number;
  items: ImportItems;
  /** Import the remote's wiki (`<remote>.wiki.git`) too, whatever the service (absent in jobs queued before). */
  wiki?: boolean;
  /** Fetch the LFS objects the history points to (`lfs`, while the LFS server is on), from `lfsEndpoint` when set. */
  lfs?: boolean;
  lfsEndpoint?: string;
}

declare module '../jobs/kinds.js' {
  interface JobPayloads {
    /** Migrate a repository into the row that waits for it in the "being migrated" state. */
    'migrate.run': MigrateJobPayload;
  }
}

/** Services whose content (beyond git) RepoHost can import: by the Gitea/Forgejo API. */
const CONTENT_SERVICES = new Set<MigrateServiceName>(['gitea', 'forgejo']);
/** Services RepoHost migrates at all. */
const SUPPORTED_SERVICES = new Set<MigrateServiceName>(['git', 'gitea', 'forgejo']);
/** Longer than the clone may take, for the content import and the bookkeeping after it. */
const WAIT_MARGIN_MS = 120_000;
/** Progress is written at most this often while git reports it. */
const PROGRESS_EVERY_MS = 500;

/** Forgejo's message for an interval below `[mirror] MIN_INTERVAL` on migration. */
const migrateIntervalMessage = (value: string, min: string) => `interval ${value} is set below Minimum Interval of ${min}`;

/** A migration that was started: the repository (still being migrated) and its job. */
export interface MigrationStarted {
  access: RepoAccess;
  job: Job;
}

export class MigrateService {
  constructor(private readonly ctx: CoreContext) {}

  private get jobs(): JobsService {
    return this.ctx.service(JobsService);
  }

  /**
   * Moves the credentials and API tokens that migration jobs keep in their payloads to a new key, inside the
   * caller's transaction (finished jobs too: their rows stay until pruned).
   */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const counts = emptyRekeyCounts();
    await this.jobs.rewritePayloads(tx, 'migrate.run', (payload, jobId) => {
      let changed = false;
      const next = { ...payload };
      for (const field of ['credentials', 'token'] as const) {
        if (!payload[field]) continue;
        const stored = countRekey(counts, rekeyRemoteCredentials(rekey, payload[field]), `${field === 'token' ? 'API token' : 'credentials'} of migration job ${jobId}`);
        if (stored !== undefined) {
          next[field] = stored;
          changed = true;
        }
      }
      return changed ? next : undefined;
    });
    return counts;
  }

  /**
   * Migrates and answers when the migration ended (within `[git.timeout] MIGRATE` and a margin): the ready
   * repository, or the job's error as a 422 (the half-made repository is gone by then). A migration still
   * running when the wait ends (`maxWaitMs`: the server answers before its idle timeout drops the connection) is
   * answered as it is, empty and being migrated; it goes on in the background.
   */
  async migrate(actor: Actor, input: MigrateRepoOptions, options: { maxWaitMs?: number } = {}): Promise<RepoAccess> {
    const started = await this.start(actor, input);
    const fullWaitMs = Math.max(1, this.ctx.settings['git.timeout'].MIGRATE) * 1000 + WAIT_MARGIN_MS;
    const timeoutMs = options.maxWaitMs !== undefined ? Math.min(options.maxWaitMs, fullWaitMs) : fullWaitMs;
    // A host that is not serving (an embedder, the CLI) has no worker: run what is due here.
    if (!this.jobs.isRunning) await this.jobs.runDue();
    const job = await this.jobs.wait(started.job.id, { timeoutMs });
    if (job.status === 'failed') throw new ValidationError('', job.error || 'Migration failed.');
    const repo = await this.ctx.port(ReposPort).byId(started.access.repo.id);
    if (!repo) throw new NotFoundError();
    return { ...started.access, repo };
  }

  /** Checks everything, writes the repository (being migrated) and queues its job; does not wait for it. */
  async start(actor: Actor, input: MigrateRepoOptions): Promise<MigrationStarted> {
    const doer = actorUser(actor);
    if (!doer) throw new ForbiddenError('sign in to migrate a repository');
    const opts = acceptInput(MigrateRepoOptionsSchema, input);
    const settings = this.ctx.settings;
    const owner = await this.owner(doer, opts);
    assertValidRepoName(opts.repo_name, 'RepoName');
    await this.ctx.service(QuotaService).assertCanWrite(owner, 'size:repos:all');
    if (!isSiteAdmin(actor)) {
      if (!isOrganization(owner) && owner.id !== doer.id) throw new ForbiddenError('Given user is not an organization.');
      if (isOrganization(owner) && !(await this.ctx.service(OrgsService).isOwner(actor, owner))) {
        throw new ForbiddenError('Given user is not owner of organization.');
      }
    }
    const credentials = credentialsOf(opts);
    const remote = await checkRemoteAddress(settings, actor, { address: opts.clone_addr, ...credentials });
    const mirror = opts.mirror === true;
    if (mirror && (settings.mirror.DISABLE_NEW_PULL || !settings.mirror.ENABLED)) {
      throw new ForbiddenError('the site administrator has disabled the creation of new pull mirrors');
    }
    if (settings.repository.DISABLE_MIGRATIONS) throw new ForbiddenError('the site administrator has disabled migrations');
    const service = opts.service ?? 'git';
    if (!SUPPORTED_SERVICES.has(service)) throw new ValidationError('', `'${service}' not supported`);
    const source = CONTENT_SERVICES.has(service) ? sourceOf(remote.url) : undefined;
    if (CONTENT_SERVICES.has(service) && !source) throw new ValidationError('', 'Invalid URL');
    const intervalSeconds = !mirror
      ? 0
      : opts.mirror_interval === undefined || opts.mirror_interval === ''
        ? this.ctx.service(MirrorsService).defaultIntervalSeconds()
        : parseMirrorInterval(opts.mirror_interval, settings.mirror.MIN_INTERVAL, migrateIntervalMessage);
    // A mirror follows git only, as in Forgejo: its issues and the rest are the remote's business.
    const wantsContent = !mirror && CONTENT_SERVICES.has(service);
    const items: ImportItems = {
      issues: wantsContent && opts.issues === true,
      labels: wantsContent && opts.labels === true,
      milestones: wantsContent && opts.milestones === true,
      releases: wantsContent && opts.releases === true,
      pull_requests: wantsContent && opts.pull_requests === true,
      comments: wantsContent && (opts.issues === true || opts.pull_requests === true),
      wiki: wantsContent && opts.wiki === true,
    };
    const limit = isSiteAdmin(actor) ? -1 : await this.assertBelowCreationLimit(owner);
    const store = this.ctx.port(ReposPort);
    if (await store.byOwnerAndName(owner.id, opts.repo_name)) throw new ConflictError('The repository with the same name already exists.');
    const key = { owner: owner.lower_name, name: opts.repo_name.toLowerCase() };
    if (await this.ctx.git.exists(key)) throw new ConflictError('Files already exist for this repository. Adopt them or delete them.');

    // Remote git is native-only: the in-memory backend answers 501 before anything is written.
    if (settings.repository.BACKEND === 'memory') throw notSupported('fetchRemote');
    // LFS objects come along when asked and served (Forgejo: `lfs` with LFS_START_SERVER); an endpoint given is
    // checked as the clone address is.
    const lfs = opts.lfs === true && settings.server.LFS_START_SERVER;
    if (lfs && (opts.lfs_endpoint ?? '').trim() !== '') await checkRemoteAddress(settings, actor, { address: (opts.lfs_endpoint ?? '').trim() });
    const secretKey = settings.security.SECRET_KEY;
    const now = nowUnix();
    try {
      return await this.ctx.transaction(async (tx) => {
        const repo = await tx.port(ReposPort).insert({
          owner_id: owner.id,
          lower_name: key.name,
          name: opts.repo_name,
          description: opts.description ?? '',
          original_url: remote.sanitized,
          default_branch: settings.repository.DEFAULT_BRANCH,
          is_private: opts.private ? 1 : 0,
          is_empty: 1,
          is_mirror: mirror ? 1 : 0,
          status: RepoStatus.BeingMigrated,
          units: serializeUnits(defaultUnits(settings)),
          num_watches: 1,
          created_unix: now,
          updated_unix: now,
        });
        // The limit once more, where it is counted: migrations that passed the check above together stop at it.
        if (!(await tx.port(UsersPort).adjustRepoCount(owner.id, 1, limit))) throw new ValidationError('', `You have already reached your limit of ${limit} repositories.`);
        await tx.port(ReposPort).watch(doer.id, repo.id);
        await tx.store(MigrationsStore).insert({ repo_id: repo.id, job_id: 0, doer_id: doer.id, service, created_unix: now });
        const payload: MigrateJobPayload = {
          repoId: repo.id,
          doerId: doer.id,
          address: remote.url,
          credentials: encryptRemoteCredentials(secretKey, remote.credentials),
          token: opts.auth_token ? encryptRemoteCredentials(secretKey, { username: '', password: opts.auth_token }) : '',
          service,
          mirror,
          intervalSeconds,
          items,
          wiki: opts.wiki === true,
          lfs: lfs,
          lfsEndpoint: lfs ? (opts.lfs_endpoint ?? '').trim() : '',
        };
        const job = await this.jobs.enqueue('migrate.run', payload, { key: `repo:${repo.id}`, tx });
        await tx.store(MigrationsStore).setJob(repo.id, job.id);
        // Forgejo answers with the owner's rights, whoever migrated.
        return { access: { repo, owner, mode: AccessMode.Owner }, job };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('The repository with the same name already exists.');
      throw error;
    }
  }

  /** The migration job of a repository still being migrated (for progress), if any. */
  async jobOf(repoId: number): Promise<Job | undefined> {
    const row = await this.ctx.store(MigrationsStore).find(repoId);
    return row && row.job_id > 0 ? this.jobs.get(Number(row.job_id)) : undefined;
  }

  /** The `migrate.run` job. Idempotent: storage a crashed attempt left is made again from nothing. */
  async handleRun(run: JobRun<MigrateJobPayload>): Promise<void> {
    const payload = run.payload;
    const repo = await this.ctx.port(ReposPort).byId(Number(payload.repoId));
    // Deleted meanwhile, or finished by an attempt whose outcome was not recorded: nothing to do.
    if (!repo || repo.status !== RepoStatus.BeingMigrated) return;
    const [owner, doer] = await Promise.all([this.ctx.port(UsersPort).byId(repo.owner_id), this.ctx.port(UsersPort).byId(Number(payload.doerId))]);
    const secretKey = this.ctx.settings.security.SECRET_KEY;
    const credentials = decryptRemoteCredentials(secretKey, payload.credentials);
    try {
      if (!owner || !doer) throw new Error('the owner or the migrating account no longer exists');
      await this.runMigration(run, { ...repo }, owner, doer, credentials);
    } catch (error) {
      const shuttingDown = run.signal.aborted && run.signal.reason instanceof JobAbortedError && run.signal.reason.reason !== 'timeout';
      // The host is closing (or another process took the job over): the job runs again, so keep what is there.
      if (shuttingDown) throw error;
      const message = describeRemoteFailure(error, credentials);
      await this.discard(repo.id).catch((cleanupError: unknown) => {
        console.error(`[repohost] removing the failed migration of repository ${repo.id} failed; it is retried at the next start:`, cleanupError);
      });
      throw new Error(message);
    }
  }

  private async runMigration(run: JobRun<MigrateJobPayload>, repo: RepoAccess['repo'], owner: User, doer: User, credentials: RemoteCredentials | undefined): Promise<void> {
    const payload = run.payload;
    const settings = this.ctx.settings;
    const actor = userActor(doer);
    const key = repoKey(owner, repo);
    const timeoutMs = Math.max(1, settings['git.timeout'].MIGRATE) * 1000;
    const report = throttled(run);

    await report('checking the remote', 0, 0);
    // One deadline for every step that talks to the remote: the probe, ls-remote and the fetch.
    const deadline = Date.now() + timeoutMs;
    const prepared = await prepareRemote(settings, actor, { address: payload.address, username: credentials?.username, password: credentials?.password }, { timeoutMs, signal: run.signal });
    const remaining = () => ({ ...prepared.git, timeoutMs: Math.max(1000, deadline - Date.now()) });
    const head = await this.ctx.git.remoteHead(remaining());
    // What an earlier attempt left half-made goes: the clone starts over.
    if (await this.ctx.git.exists(key)) await this.ctx.git.remove(key);
    const defaultBranch = head.headBranch ?? settings.repository.DEFAULT_BRANCH;
    await this.ctx.git.create(key, { objectFormat: head.objectFormat, defaultBranch });
    // Branches and tags only: a remote's pull request refs and the like are its own (Forgejo drops them too).
    await this.ctx.git.fetchRemote(key, remaining(), {
      refspecs: ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'],
      prune: false,
      onProgress: (phase, done, total) => void report(`cloning: ${phase}`, done, total, false),
    });
    await report('cloning: done', 1, 1);
    if (payload.lfs) {
      await report('fetching LFS objects', 0, 0);
      const checked = await checkRemoteAddress(settings, actor, { address: payload.address, username: credentials?.username, password: credentials?.password });
      await this.ctx.service(LfsService).fetchFromRemote({
        repoId: repo.id,
        key,
        actor,
        remote: checked,
        endpoint: payload.lfsEndpoint,
        timeoutMs: Math.max(1000, deadline - Date.now()),
        signal: run.signal,
      });
    }
    if (payload.wiki) await this.importWiki({ repo, owner }, actor, payload.address, credentials, remaining);
    const derived = await this.ctx.service(ReposService).deriveFromRefs(key, defaultBranch);
    if (payload.items && Object.values(payload.items).some(Boolean)) {
      const source = sourceOf(payload.address);
      if (source) {
        const base = await checkRemoteAddress(settings, actor, { address: source.base, username: credentials?.username, password: credentials?.password });
        const token = payload.token ? decryptRemoteCredentials(this.ctx.settings.security.SECRET_KEY, payload.token)?.password : undefined;
        await importRepositoryContent(this.ctx, {
          repo: { ...repo, ...derived, object_format_name: head.objectFormat },
          owner,
          doer,
          remote: base,
          token,
          sourceOwner: source.owner,
          sourceName: source.name,
          items: payload.items,
          progress: (step, done, total) => report(`importing ${step}`, done, total),
          signal: run.signal,
        });
      }
    }
    await report('finishing', 1, 1);
    const now = nowUnix();
    await this.ctx.transaction(async (tx) => {
      const ready = await tx.port(ReposPort).finishMigration(repo.id, {
        ...derived,
        object_format_name: head.objectFormat,
        status: RepoStatus.Ready,
        updated_unix: now,
      });
      if (!ready) throw new Error('the repository was deleted during its migration');
      if (payload.mirror) {
        await this.ctx.service(MirrorsService).insertFor(tx, repo.id, { sanitized: payload.address, credentials }, Number(payload.intervalSeconds), payload.lfs ? { endpoint: payload.lfsEndpoint ?? '' } : undefined);
      }
      await tx.store(MigrationsStore).delete(repo.id);
      tx.emit('repo.created', { repo: ready, owner, actor: userActor(doer) });
    });
  }

  /**
   * Clones the remote's wiki (`<address without .git>.wiki.git`) into the repository's, as Forgejo's migration does
   * when asked for the wiki; a remote without one (or one that refuses) leaves the repository without a wiki,
   * silently, as in Forgejo. `has_wiki_contents` is recorded under a `wiki` intent.
   */
  private async importWiki(
    access: Pick<RepoAccess, 'owner' | 'repo'>,
    actor: Actor,
    address: string,
    credentials: RemoteCredentials | undefined,
    remaining: () => { timeoutMs: number },
  ): Promise<void> {
    const wikis = this.ctx.service(RepoWikiStorage);
    const settings = this.ctx.settings;
    const wikiAddress = `${address.endsWith('.git') ? address.slice(0, -4) : address}.wiki.git`;
    const intent = await wikis.begin(access);
    try {
      // What an earlier attempt left goes: the clone starts over.
      await wikis.remove(access);
      try {
        const { timeoutMs } = remaining();
        const prepared = await prepareRemote(settings, actor, { address: wikiAddress, username: credentials?.username, password: credentials?.password }, { timeoutMs });
        const wikiRemote = () => ({ ...prepared.git, timeoutMs: remaining().timeoutMs });
        const head = await this.ctx.git.remoteHead(wikiRemote());
        await wikis.init(access, { branch: head.headBranch ?? wikiBranchOf(access.repo), objectFormat: head.objectFormat });
        await this.ctx.git.fetchRemote(wikis.key(access), wikiRemote(), { refspecs: ['+refs/heads/*:refs/heads/*'], prune: false });
      } catch (error) {
        console.warn(`[repohost] no wiki imported from ${wikiAddress}: ${describeRemoteFailure(error, credentials)}`);
        await wikis.remove(access);
      }
    } finally {
      await wikis.complete(access, intent);
    }
  }

  /** Removes a migration's repository (row and storage) through the ordinary deletion path. */
  private async discard(repoId: number): Promise<void> {
    const repo = await this.ctx.port(ReposPort).byId(repoId);
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    if (!repo || !owner) return;
    await this.ctx.service(ReposService).delete(SYSTEM, { repo, owner, mode: AccessMode.Owner });
  }

  /**
   * At start-up, before jobs run: repositories whose migration ended without completing (its job failed, was
   * pruned, or is gone) are removed. Those whose job is still queued or was running are left to it: the worker
   * resumes them. Returns the repositories removed.
   */
  async repairInterrupted(): Promise<number[]> {
    const removed: number[] = [];
    for (const migration of await this.ctx.store(MigrationsStore).all()) {
      const job = migration.job_id > 0 ? await this.jobs.get(Number(migration.job_id)) : undefined;
      if (job && (job.status === 'queued' || job.status === 'running')) continue;
      await this.discard(migration.repo_id);
      await this.ctx.store(MigrationsStore).delete(migration.repo_id);
      removed.push(migration.repo_id);
    }
    return removed;
  }

  /** `repo_owner` (or the deprecated `uid`), else the caller; 422 when it does not exist or the caller may not see it. */
  private async owner(doer: User, opts: MigrateRepoOptions): Promise<User> {
    const users = this.ctx.port(UsersPort);
    if (opts.repo_owner) {
      const found = await users.byName(opts.repo_owner);
      if (!found || !(await this.ctx.service(AccessService).canSee(userActor(doer), found))) {
        throw new ValidationError('', `user does not exist [uid: 0, name: ${opts.repo_owner}]`);
      }
      return found;
    }
    if (opts.uid !== undefined && opts.uid !== 0) {
      const found = Number.isSafeInteger(opts.uid) && opts.uid > 0 ? await users.byId(opts.uid) : undefined;
      if (!found || !(await this.ctx.service(AccessService).canSee(userActor(doer), found))) {
        throw new ValidationError('', `user does not exist [uid: ${opts.uid}, name: ]`);
      }
      return found;
    }
    return doer;
  }

  /** Forgejo answers the repository limit on migrations with 422 (its handleMigrateError). */
  private async assertBelowCreationLimit(owner: User): Promise<number> {
    const own = await this.ctx.port(UsersPort).repoCreationLimitOf(owner.id);
    const limit = own > -1 ? own : this.ctx.settings.repository.MAX_CREATION_LIMIT;
    if (limit >= 0 && owner.num_repos >= limit) throw new ValidationError('', `You have already reached your limit of ${limit} repositories.`);
    return limit;
  }
}

/** Basic credentials from the options: `auth_username`/`auth_password`, or the token as the password. */
function credentialsOf(opts: MigrateRepoOptions): { username?: string; password?: string } {
  if (opts.auth_username || opts.auth_password) return { username: opts.auth_username || undefined, password: opts.auth_password || undefined };
  // A token alone authenticates git over HTTP as the password (Forgejo and Gitea take any user name with it).
  if (opts.auth_token) return { username: 'oauth2', password: opts.auth_token };
  return {};
}

/**
 * A Gitea/Forgejo clone address split into the instance's base URL and the repository's owner and name:
 * `https://host/sub/path/owner/name(.git)` → `https://host/sub/path/`, `owner`, `name`.
 */
export function sourceOf(address: string): { base: string; owner: string; name: string } | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const parts = url.pathname.split('/').filter((p) => p !== '');
  if (parts.length < 2) return undefined;
  const name = decodeURIComponent(parts.pop()!).replace(/\.git$/i, '');
  const owner = decodeURIComponent(parts.pop()!);
  if (!name || !owner) return undefined;
  url.pathname = parts.length > 0 ? `/${parts.join('/')}/` : '/';
  url.search = '';
  url.hash = '';
  url.username = '';
  url.password = '';
  return { base: url.toString(), owner, name };
}

/** Progress written to the job at most every PROGRESS_EVERY_MS (unless `force`), never concurrently. */
function throttled(run: JobRun<unknown>): (message: string, done: number, total: number, force?: boolean) => Promise<void> {
  let last = 0;
  let writing: Promise<void> | undefined;
  return async (message, done, total, force = true) => {
    const now = Date.now();
    if (!force && (now - last < PROGRESS_EVERY_MS || writing)) return;
    last = now;
    await writing;
    writing = run.progress(done, total, message).catch(() => undefined);
    await writing;
    writing = undefined;
  };
}
