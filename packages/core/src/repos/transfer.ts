import { availableParallelism } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { DEFAULT_OBJECT_FORMAT, isObjectFormat, type DirectOutput, type GitService, type ObjectFormat, type ServiceSession } from '../git/index.js';
import { RepoStatus, type Repository } from './tables.js';
import { ConcurrencyLimit, WIKI_SUFFIX, firstPktLine, formatLsRefs, parseLsRefsRequest, type RepoKey } from '../git/index.js';
import { ReposService, repoKey } from './service.js';
import { GitIntentStore } from './intents.js';
import type { RepoAccess } from './access.js';
import { QuotaService } from '../quota/index.js';
import './push-policy.js';
import { RepoWikiStorage } from './wiki.js';

export interface TransferRequest {
  owner: string;
  /** Repository name, with or without a `.git` suffix; `<name>.wiki` names the repository's wiki. */
  name: string;
  service: GitService;
  /** The client's `Git-Protocol` value; anything that is not `key=value` pairs is dropped. */
  protocol?: string;
  /** A deploy key authenticated the client (SSH): branch rules judge its push by `push_whitelist_deploy_keys`. */
  deployKey?: boolean;
  /**
   * Where an old name leads after renames and transfers, to serve that repository in place (SSH, as Forgejo's serv
   * does; the caller passes the redirects domain's `followRepo`). Over HTTP the server redirects instead, so that
   * the client moves to the new URL.
   */
  followRenames?: RenameFollower;
}

/** The repository `owner/name` names after every rename and transfer, with `actor`'s access; undefined for none. */
export type RenameFollower = (actor: Actor, owner: string, name: string) => Promise<RepoAccess | undefined>;

export interface TransferOptions {
  /** Aborted when the client has gone away: a waiting request leaves the queue, a running git is killed. */
  signal?: AbortSignal;
}

export interface RunTransferOptions extends TransferOptions {
  /** HTTP sends one request per round (`--stateless-rpc`); SSH keeps one bidirectional stream. */
  stateless: boolean;
  /**
   * Start git without waiting for the client's first bytes: over SSH the server speaks first (the ref
   * advertisement), while an HTTP request always carries its body.
   */
  serverSpeaksFirst?: boolean;
  /**
   * A fetch over HTTP/1 on a plain TCP connection: git may write its answer to the client's socket itself (see
   * `DirectOutput`). Used when the whole request body has come within `WHOLE_FETCH_REQUEST` and the backend can;
   * the session says whether it was (`direct`).
   */
  directOutput?: DirectOutput;
}

const SAFE_PROTOCOL = /^[A-Za-z0-9=:._-]+$/;

/**
 * Git transfers (clone, fetch, push) over any byte stream: smart HTTP today, SSH later. Decides access with the
 * same question the API asks, and records pushes in the database when they finish.
 */
export class GitTransferService {
  /** Slots for git service processes: each one held from the process's start until it has exited. */
  private readonly slots: ConcurrencyLimit;

  constructor(private readonly ctx: CoreContext) {
    const { GIT_MAX_SERVICES, GIT_SERVICE_QUEUE_TIMEOUT } = ctx.settings.repohost;
    this.slots = new ConcurrencyLimit(GIT_MAX_SERVICES > 0 ? GIT_MAX_SERVICES : 4 * availableParallelism(), Math.max(0, GIT_SERVICE_QUEUE_TIMEOUT) * 1000);
  }

  private get repos(): ReposService {
    return this.ctx.service(ReposService);
  }

  /**
   * Resolves the repository and checks the actor may run `service` on it. Anonymous actors get Unauthorized
   * where credentials could help (pushes, private repositories) so clients know to ask for them.
   */
  private async authorize(actor: Actor, request: TransferRequest) {
    let name = request.name.replace(/\.git$/i, '');
    // `<name>.wiki(.git)` is the repository's wiki, as Forgejo serves it (no repository is named `*.wiki`).
    const wiki = name.toLowerCase().endsWith(WIKI_SUFFIX) && name.length > WIKI_SUFFIX.length;
    if (wiki) name = name.slice(0, -WIKI_SUFFIX.length);
    if (request.service === 'receive-pack' && actor.kind === 'anonymous') throw new UnauthorizedError();
    // As Forgejo's askAuth under [service] REQUIRE_SIGNIN_VIEW: nothing is served anonymously. git then retries with
    // the user's credentials, so a restricted account meets the same answer as in the API (a public repository it
    // was given nothing on is not found) instead of cloning it as nobody.
    if (actor.kind === 'anonymous' && this.ctx.settings.service.REQUIRE_SIGNIN_VIEW) throw new UnauthorizedError();
    let access;
    try {
      access = await this.repos.resolve(actor, request.owner, name);
    } catch (error) {
      // Looked up only once the name itself found nothing: reads of existing repositories pay nothing for renames.
      const moved = error instanceof NotFoundError && request.followRenames ? await request.followRenames(actor, request.owner, name) : undefined;
      if (moved) return this.checked(actor, request, moved, wiki);
      if (error instanceof NotFoundError && actor.kind === 'anonymous') throw new UnauthorizedError();
      if (error instanceof NotFoundError) throw new NotFoundError('Repository not found');
      throw error;
    }
    return this.checked(actor, request, access, wiki);
  }

  /** The checks after the repository is found: the actor's mode on its code, its state, its storage. */
  private async checked(actor: Actor, request: TransferRequest, access: RepoAccess, wiki: boolean) {
    const needed = request.service === 'receive-pack' ? AccessMode.Write : AccessMode.Read;
    // The wiki's permission is the wiki unit's (write for any signed-in reader of a globally editable wiki).
    const mode = wiki ? this.wikis.mode(actor, access) : unitMode(access, 'repo.code');
    if (wiki && mode === AccessMode.None && unitMode(access, 'repo.wiki') >= AccessMode.Read) throw new ForbiddenError('repository wiki is disabled');
    if (mode < needed) throw new ForbiddenError('User permission denied');
    if (request.service === 'receive-pack' && access.repo.is_archived === 1) throw new ForbiddenError('This repository is archived: it can be cloned, but not pushed to.');
    // As Forgejo: a pull mirror follows its remote only, and a repository being migrated is not there yet.
    if (request.service === 'receive-pack' && access.repo.is_mirror === 1) throw new ForbiddenError('mirror repository is read-only');
    if (access.repo.status === RepoStatus.BeingMigrated) throw new ForbiddenError('Repository is being created, you could retry after it finished');
    // A writer's first push makes the wiki's storage, as Forgejo's InitWiki (an empty wiki still has no contents).
    if (wiki && request.service === 'receive-pack') await this.wikis.init(access);
    const key = wiki ? this.wikis.key(access) : repoKey(access.owner, access.repo);
    // A row whose storage is missing (lost, or not restored from a backup) is reported by the storage check.
    if (!(await this.ctx.git.exists(key))) throw new NotFoundError('Repository not found');
    const protocol = request.protocol && SAFE_PROTOCOL.test(request.protocol) ? request.protocol : undefined;
    return { access, key, protocol, wiki };
  }

  private get wikis(): RepoWikiStorage {
    return this.ctx.service(RepoWikiStorage);
  }

  /** The ref advertisement for `info/refs`. */
  async advertise(actor: Actor, request: TransferRequest, options: TransferOptions = {}): Promise<Buffer> {
    const { access, key, protocol } = await this.authorize(actor, request);
    const release = await this.slots.acquire(options.signal);
    try {
      return await this.ctx.git.advertiseRefs(key, request.service, { protocol, objectFormat: objectFormatOf(access.repo) });
    } finally {
      release();
    }
  }

  /**
   * Protocol v2's `ls-refs` (the first request of every fetch over smart HTTP) answered from the backend's ref
   * listing, without a git process; or the input to hand to git, unchanged, for every other request and whenever
   * the backend cannot answer exactly as git would.
   */
  private async answerLsRefs(access: RepoAccess, key: RepoKey, input: Readable, signal: AbortSignal | undefined): Promise<{ session: ServiceSession } | { input: Readable }> {
    if (!this.ctx.git.listRefsForTransfer) return { input };
    const head = input.read() as Buffer | null;
    if (head === null) return { input };
    const first = firstPktLine(head);
    if (first !== 'command=ls-refs\n' && first !== 'command=ls-refs') {
      // Put back before the stream could end: git reads the body from its first byte.
      input.unshift(head);
      return { input };
    }
    const rest = await readUpTo(input, MAX_LS_REFS_REQUEST, signal);
    const read = [head, ...rest.chunks];
    const replay = (): Readable => replayed(read, input);
    if (!rest.ended) return { input: replay() };
    const body = Buffer.concat(read);
    const parsed = parseLsRefsRequest(body, objectFormatOf(access.repo));
    const listed = parsed && (await this.ctx.git.listRefsForTransfer(key));
    if (!parsed || !listed) return { input: replay() };
    const output = Readable.from([formatLsRefs(parsed, listed)], { objectMode: false });
    return { session: { output, done: Promise.resolve([]) } };
  }

  /**
   * Runs the service over `input`; `done` settles after the push (if any) is recorded. git starts only once the
   * first bytes of `input` have arrived (unless the server speaks first) and a slot is free, so a client that
   * announces a body and sends nothing costs neither; a fetch over HTTP starts once its whole request has come
   * (up to `WHOLE_FETCH_REQUEST`).
   */
  async run(actor: Actor, request: TransferRequest, input: Readable, options: RunTransferOptions): Promise<ServiceSession> {
    const { access, key, protocol, wiki } = await this.authorize(actor, request);
    // Input errors are read from `input.errored` below; one while nothing else listens must not crash the process.
    input.on('error', () => {});
    if (!options.serverSpeaksFirst) await bodyArrives(input, options.signal);
    if (request.service === 'upload-pack' && options.stateless && protocol?.split(':').includes('version=2')) {
      const listed = await this.answerLsRefs(access, key, input, options.signal);
      if ('session' in listed) return listed.session;
      input = listed.input;
    }
    let directOutput: DirectOutput | undefined;
    if (request.service === 'upload-pack' && options.stateless) {
      // A fetch's git starts once its whole request is here: a client that sends part of one holds neither a process
      // nor a slot, and the answer starts with nothing left to refuse (so git may write it to the socket itself).
      const body = await readUpTo(input, WHOLE_FETCH_REQUEST, options.signal);
      if (body.ended) {
        input = Readable.from([Buffer.concat(body.chunks)], { objectMode: false });
        directOutput = options.directOutput;
      } else input = replayed(body.chunks, input);
    }
    // Over quota, the pre-receive hook refuses every update but deletions (which free space), as Forgejo's does.
    const overQuota = request.service === 'receive-pack' && (await this.ctx.service(QuotaService).pushOverQuota(access.owner));
    // Only a repository with protection rules has its pushes checked by the server (from the pre-receive hook).
    const pushCheck = request.service === 'receive-pack' && !wiki ? await this.ctx.provider('repos.pushPolicy').openPushCheck(actor, access, key, { deployKey: request.deployKey === true }) : undefined;
    const release = await this.slots.acquire(options.signal).catch((error: unknown) => {
      pushCheck?.close();
      throw error;
    });
    let session: ServiceSession;
    let intent: number | undefined;
    try {
      // Until the push is recorded, its intent lets start-up repair the bookkeeping if the process dies.
      // A wiki's push changes only `has_wiki_contents`, which its `wiki` intent repairs.
      if (request.service === 'receive-pack') intent = wiki ? await this.wikis.begin(access) : await this.repos.beginPush(access);
      // The input may have failed while this request waited for its slot.
      if (input.errored) throw input.errored;
      if (input.destroyed && !input.readableEnded) throw new BadRequestError('the request body was cut off');
      session = this.ctx.git.runService(key, request.service, {
        input,
        protocol,
        stateless: options.stateless,
        signal: options.signal,
        maxInputSize: this.ctx.settings.repohost.GIT_RECEIVE_MAX_INPUT_SIZE,
        overQuota,
        hookCallback: pushCheck?.callback,
        userHooks: !this.ctx.settings.security.DISABLE_GIT_HOOKS,
        directOutput,
      });
    } catch (error) {
      release();
      pushCheck?.close();
      // Left behind if this fails too: start-up then resyncs a repository that did not change, harmlessly.
      if (intent !== undefined) await this.ctx.store(GitIntentStore).delete(intent).catch(() => undefined);
      throw error;
    }
    session.done.then(release, release);
    if (pushCheck) session.done.then(pushCheck.close, pushCheck.close);
    const done = session.done.then(
      async (updates) => {
        if (wiki) {
          if (intent !== undefined) await this.wikis.complete(access, intent);
        } else await this.repos.recordPush(actor, access, updates, intent);
        return updates;
      },
      async (error: unknown) => {
        // A push cut off midway may still have moved refs: the bookkeeping follows them either way.
        if (intent !== undefined) await (wiki ? this.wikis.complete(access, intent) : this.repos.resyncFromRefs(access.repo, key, intent));
        throw error;
      },
    );
    done.catch(() => {});
    return session.direct ? { output: session.output, done, direct: true } : { output: session.output, done };
  }
}

/** A fetch request longer than this streams into git (and its answer through this process); a clone's is a few KiB. */
const WHOLE_FETCH_REQUEST = 1024 * 1024;

/** A stream that yields `read` (taken from `rest` already) and then whatever `rest` still has. */
function replayed(read: readonly Buffer[], rest: Readable): Readable {
  const again = new PassThrough();
  for (const chunk of read) again.write(chunk);
  if (rest.readableEnded) again.end();
  else rest.pipe(again);
  return again;
}

/** An `ls-refs` request longer than this is left to git (a client sends a few hundred bytes). */
const MAX_LS_REFS_REQUEST = 256 * 1024;

/**
 * The whole of `input` when it ends within `limit` bytes (`ended`), else what was read so far with the stream
 * paused where it stopped. Rejects when the stream fails or closes early.
 */
function readUpTo(input: Readable, limit: number, signal: AbortSignal | undefined): Promise<{ chunks: Buffer[]; ended: boolean }> {
  const chunks: Buffer[] = [];
  if (input.readableEnded) return Promise.resolve({ chunks, ended: true });
  // Failed or closed already: no event is left to come.
  if (input.errored) return Promise.reject(input.errored);
  if (input.destroyed) return Promise.reject(new BadRequestError('the request body was cut off'));
  let size = 0;
  return new Promise((resolve, reject) => {
    const settle = (result: { chunks: Buffer[]; ended: boolean } | undefined, error?: unknown) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      input.off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      if (result) resolve(result);
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        input.pause();
        settle({ chunks, ended: false });
      }
    };
    const onEnd = () => settle({ chunks, ended: true });
    const onError = (error: unknown) => settle(undefined, error);
    const onClose = () => settle(undefined, input.errored ?? new BadRequestError('the request body was cut off'));
    const onAbort = () => settle(undefined, signal?.reason);
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
    input.once('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves once `input` has bytes buffered (or has reached its end) without consuming any, so whoever reads it
 * next sees the whole body. Rejects if it fails or closes first, or the signal aborts.
 */
function bodyArrives(input: Readable, signal: AbortSignal | undefined): Promise<void> {
  if (input.readableLength > 0 || input.readableEnded) return Promise.resolve();
  if (input.errored) return Promise.reject(input.errored);
  if (input.destroyed) return Promise.reject(new BadRequestError('the request body was cut off'));
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown) => {
      input.off('readable', onReadable);
      input.off('error', onError);
      input.off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    // 'readable' comes with the first bytes, or at the end of an empty body.
    const onReadable = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(input.errored ?? new BadRequestError('the request body was cut off'));
    const onAbort = () => settle(signal!.reason);
    input.on('readable', onReadable);
    input.on('error', onError);
    input.on('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function objectFormatOf(repo: Repository): ObjectFormat {
  return isObjectFormat(repo.object_format_name) ? repo.object_format_name : DEFAULT_OBJECT_FORMAT;
}
