import { ServerResponse, type IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { createGunzip } from 'node:zlib';
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { FLUSH_PKT, ForbiddenError, NotFoundError, UnauthorizedError, isRepoHostError, pktLine, scopesGrant, type DirectOutput, type GitService, type RepoHost, type ServiceSession } from '@repohost/core';
import { authenticate, type Authentication } from '../auth.js';
import { bodyTooLargeResponse, decodedRouterParams, errorResponse, missingScopeError, requestCredentials, type ResponseHeaders } from '../api/router.js';
import { HttpError } from '../api/errors.js';
import { MovedError, movedResponse, repoMoved } from '../api/redirects.js';
import { RequestLimits } from '../rate-limits.js';

const TWO_FACTOR_PASSWORD_REFUSED =
  'Users with two-factor authentication enabled cannot perform HTTP/HTTPS operations via plain username and password. Please create and use a personal access token on the user settings page';

/** srvx sends a Node stream given as the body by piping it into the socket; its types only know web bodies. */
type ResponseBody = ConstructorParameters<typeof FastResponse>[0];

/** The smart-protocol services by the name clients ask for: a Map, so a client's name can only pick one of these. */
const SERVICES: ReadonlyMap<string, GitService> = new Map([
  ['git-upload-pack', 'upload-pack'],
  ['git-receive-pack', 'receive-pack'],
]);

/** The `# service=…` preamble smart-HTTP v0/v1 puts before the advertisement, as a pkt-line and a flush. */
function servicePreamble(service: string): Buffer {
  return Buffer.concat([pktLine(`# service=${service}\n`), FLUSH_PKT]);
}

/**
 * Git's smart HTTP protocol (v0, v1 and v2): `GET info/refs?service=…`, `POST git-upload-pack`,
 * `POST git-receive-pack`, with gzip request bodies. Access is decided by core's transfer service.
 */
export function registerSmartHttp(app: H3, host: RepoHost): void {
  app.get('/:owner/:repo/info/refs', (event) => handle(host, event, async (auth, owner, repo) => {
    const serviceName = event.url.searchParams.get('service') ?? '';
    const service = SERVICES.get(serviceName);
    if (!service) throw new HttpError(403, 'dumb HTTP transport is not supported; use a git client with smart HTTP');
    checkGitScope(auth, service);
    const protocol = event.req.headers.get('git-protocol') ?? undefined;
    const advertisement = await host.transfer.advertise(auth.actor, { owner, name: repo, service, protocol }, { signal: event.req.signal });
    const v2 = protocol?.split(':').includes('version=2') ?? false;
    const body = v2 ? advertisement : Buffer.concat([servicePreamble(serviceName), advertisement]);
    return new FastResponse(body, { status: 200, headers: noCache(`application/x-${serviceName}-advertisement`) });
  }));

  for (const [serviceName, service] of SERVICES) {
    app.post(`/:owner/:repo/${serviceName}`, (event) => handle(host, event, async (auth, owner, repo) => {
      checkGitScope(auth, service);
      if (event.req.headers.get('content-type') !== `application/x-${serviceName}-request`) {
        throw new HttpError(415, `expected content type application/x-${serviceName}-request`);
      }
      // Stops git when the client goes away (the request or response closes early) or the body goes over its cap.
      const stop = new AbortController();
      event.req.signal.addEventListener('abort', () => stop.abort(event.req.signal.reason), { once: true });
      // A fetch negotiation is small; pushes are bounded by git itself (receive.maxInputSize).
      const cap = service === 'upload-pack' ? host.settings.repohost.GIT_MAX_FETCH_REQUEST_SIZE : 0;
      const input = requestBody(event, cap);
      input.on('error', (error) => stop.abort(error));
      const protocol = event.req.headers.get('git-protocol') ?? undefined;
      const headers = noCache(`application/x-${serviceName}-result`);
      const direct = service === 'upload-pack' ? directOutputOf(event, host, headers) : undefined;
      const session = await host.transfer.run(auth.actor, { owner, name: repo, service, protocol }, input, { stateless: true, signal: stop.signal, directOutput: direct?.output });
      if (session.direct && direct) return directAnswer(session, direct);
      // The status goes out with git's first bytes, so a body that goes over its cap before then still gets its 413.
      await outputStarts(session.output);
      // A body over its cap, or not gzip after all, before git has answered: say so instead of a cut-off 200.
      if (input.errored instanceof HttpError) throw input.errored;
      // Stopped before it said anything: the client has gone away, and nobody is left to answer.
      if (session.output.destroyed && !session.output.readableEnded) throw new HttpError(499, 'the client closed the request');
      // A fetch answers with git's own stdout, piped to the socket (srvx pipes a Node stream as it is): nothing to
      // record afterwards, and the client checks the pack's framing itself.
      if (service === 'upload-pack') return new FastResponse(session.output as unknown as ResponseBody, { status: 200, headers });
      // The response ends only after the push is recorded, so a client that sees success sees the new state.
      const body = new PassThrough();
      session.output.pipe(body, { end: false });
      session.output.on('end', () => {
        session.done.then(
          () => body.end(),
          (error: unknown) => body.destroy(error as Error),
        );
      });
      session.output.on('error', (error) => body.destroy(error));
      // Stopped git closes its output without an end: cut the response rather than leave it hanging.
      session.output.on('close', () => {
        if (!session.output.readableEnded) body.destroy(new Error(`git ${service} stopped`));
      });
      return new FastResponse(Readable.toWeb(body) as ReadableStream, { status: 200, headers });
    }));
  }
}

async function handle(
  host: RepoHost,
  event: H3Event,
  run: (auth: Authentication, owner: string, repo: string) => Promise<Response>,
): Promise<Response> {
  try {
    if (host.settings.repository.DISABLE_HTTP_GIT) throw new ForbiddenError('Interacting with repositories by HTTP protocol is not allowed');
    const { owner, repo } = decodedRouterParams(event) as { owner: string; repo: string };
    // `[api.ratelimit]`: every git request counts in the `git` resource; git prints a refusal's 429.
    const limits = RequestLimits.of(host);
    const auth = limits ? await countedGitAuth(host, event, limits) : await authenticate(host, requestCredentials(event), { allowReverseProxy: false });
    // As Forgejo: git over HTTP takes no password of an account with two-factor authentication, only a token.
    if (auth.method === 'basic_password' && auth.twoFactor) {
      return new FastResponse(`${TWO_FACTOR_PASSWORD_REFUSED}\n`, { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    try {
      return await run(auth, owner, repo);
    } catch (error) {
      const moved = await movedRepository(host, event, auth, owner, repo, error);
      if (moved) return movedResponse(moved);
      throw error;
    }
  } catch (error) {
    let status = error instanceof NotFoundError ? new NotFoundError('Repository not found') : error;
    // A client that went away hears nothing; its dropped connection (ECONNRESET, …) is no server error to log.
    if (event.req.signal.aborted && !isRepoHostError(error) && !(error instanceof HttpError)) status = new HttpError(499, 'the client closed the request');
    // After a 413 the rest of the body is left unread: answered as the API answers it, then the connection closes.
    if (error instanceof HttpError && error.status === 413) return bodyTooLargeResponse(host, error, {}, event);
    // git prints a text/plain error body as `remote: …`: the reason a push is refused (archived, no permission)
    // reaches the user, as Forgejo's plain-text answers do.
    if (error instanceof ForbiddenError) {
      return new FastResponse(`${error.message}\n`, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    return errorResponse(host, status, {}, { challenge: true });
  }
}

/** `authenticate`, with the call counted against its caller's `git` limit (refused credentials: the address's). */
async function countedGitAuth(host: RepoHost, event: H3Event, limits: RequestLimits): Promise<Authentication> {
  let auth: Authentication;
  try {
    auth = await authenticate(host, requestCredentials(event), { allowReverseProxy: false });
  } catch (error) {
    await limits.countRefused('git', error, event, {});
    throw error;
  }
  await limits.count('git', auth.actor, event, {});
  return auth;
}

/**
 * The redirect for a repository path (or its wiki's) a rename or transfer left behind, as Forgejo's git over HTTP
 * redirects (git follows it for `info/refs` and goes on at the new URL). Looked up only once the path found nothing: a 404,
 * or the challenge an anonymous fetch gets (git asks for credentials then; an anonymous push always gets it).
 */
async function movedRepository(host: RepoHost, event: H3Event, auth: Authentication, owner: string, repo: string, error: unknown): Promise<MovedError | undefined> {
  const anonymousFetch = auth.actor.kind === 'anonymous' && !event.url.pathname.endsWith('/git-receive-pack') && event.url.searchParams.get('service') !== 'git-receive-pack';
  if (!(error instanceof NotFoundError) && !(error instanceof UnauthorizedError && anonymousFetch)) return undefined;
  const bare = repo.toLowerCase().endsWith('.git') ? repo.slice(0, -4) : repo;
  // `<name>.wiki.git` is the repository's wiki (no repository name ends in `.wiki`): it moves with the repository.
  const name = bare.toLowerCase().endsWith('.wiki') ? bare.slice(0, -5) : bare;
  return repoMoved(host, auth.actor, event, 1, owner, repo, name);
}

/** A token used for git needs `read:repository` to fetch and `write:repository` to push. */
function checkGitScope(auth: Authentication, service: GitService): void {
  if (auth.scopes === null) return;
  const level = service === 'receive-pack' ? 'write' : 'read';
  if (!scopesGrant(auth.scopes, 'repository', level)) {
    // The credentials are valid; a challenge would only make git report an authentication failure (Forgejo: 403).
    throw missingScopeError(['repository'], level);
  }
}

/**
 * The request body as git should read it: inflated when gzip-encoded and, when `maxBytes` is positive, cut off
 * with a 413 error once it has yielded more than `maxBytes` (a small gzip body can inflate to gigabytes).
 */
function requestBody(event: H3Event, maxBytes: number): Readable {
  const nodeReq = (event.runtime as { node?: { req?: Readable } } | undefined)?.node?.req;
  const raw = nodeReq ?? (event.req.body ? Readable.fromWeb(event.req.body as never) : Readable.from([]));
  let source = raw;
  if ((event.req.headers.get('content-encoding') ?? '').toLowerCase() === 'gzip') {
    const gunzip = createGunzip();
    raw.on('error', (error) => gunzip.destroy(error));
    source = raw.pipe(gunzip);
  }
  const body = new ByteLimit(maxBytes > 0 ? maxBytes : Infinity, () => {
    // Stop inflating at once; the raw request stays open so that a 413 can still be sent.
    if (source !== raw) source.destroy();
    raw.unpipe();
    raw.pause();
  });
  source.on('error', (error: NodeJS.ErrnoException) => {
    // zlib's codes start with Z_: the client sent something that is not gzip.
    body.destroy(error.code?.startsWith('Z_') ? new HttpError(400, 'the request body is not valid gzip') : error);
  });
  // A client that hangs up mid-body must end what git reads too, or git would wait for the rest forever.
  raw.on('close', () => {
    if (raw.readableEnded) return;
    if (source !== raw) source.destroy();
    body.destroy(raw.errored ?? new Error('the request body was cut off'));
  });
  return source.pipe(body);
}

/** Passes bytes through until more than `max` have gone by, then fails with a 413. */
class ByteLimit extends Transform {
  private seen = 0;

  constructor(
    private readonly max: number,
    private readonly onExceeded: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen <= this.max) return callback(null, chunk);
    this.onExceeded();
    callback(new HttpError(413, `the request is larger than ${this.max} bytes`));
  }
}

/** A fetch's answer that git writes to the client's socket itself, and what tells when its headers have gone out. */
interface DirectAnswer {
  output: DirectOutput;
  socket: Socket;
  headersSent: Promise<void>;
}

/**
 * The client's connection, when git can write a fetch's answer to it itself (its pack then takes no copy through
 * this process, which was most of the server's CPU per clone): HTTP/1 on plain TCP, since TLS encrypts in this
 * process and HTTP/2 frames. That answer has no chunked framing; it ends when the connection closes
 * (`Connection: close`), and its headers go out before git is given its request. The access log counts no body bytes
 * for it: they do not pass through here.
 */
function directOutputOf(event: H3Event, host: RepoHost, headers: ResponseHeaders): DirectAnswer | undefined {
  const node = event.runtime?.node as { req?: IncomingMessage; res?: unknown } | undefined;
  const req = node?.req;
  const res = node?.res;
  if (!req || !(res instanceof ServerResponse) || req.httpVersionMajor !== 1) return undefined;
  const socket = req.socket;
  if (!(socket instanceof Socket) || socket instanceof TLSSocket || socket.destroyed) return undefined;
  let sent!: () => void;
  const headersSent = new Promise<void>((resolve) => (sent = resolve));
  const beforeOutput = async () => {
    if (res.headersSent || socket.destroyed) throw new Error('the connection has gone');
    // The body is git's bytes as they are, up to the end of the connection.
    res.useChunkedEncodingByDefault = false;
    res.writeHead(200, { ...headers, connection: 'close' });
    res.flushHeaders();
    // Node's inactivity timeout would see nothing more go by: git's writes are watched instead.
    socket.setTimeout(0);
    // Queued behind the headers: called once they are with the kernel, before anything git writes.
    await new Promise<void>((resolve, reject) => socket.write(Buffer.alloc(0), (error) => (error ? reject(error) : resolve())));
    sent();
  };
  const idleTimeoutMs = Math.max(0, host.settings.repohost.HTTP_IDLE_TIMEOUT) * 1000;
  return { output: { socket, beforeOutput, idleTimeoutMs }, socket, headersSent };
}

/**
 * The response of a fetch git answers on the socket: its headers are out once git has started; the response ends
 * (and the connection closes) when git has exited. A git that fails before then gets the usual error answer; one
 * that fails midway leaves a cut connection, which the client reports.
 */
async function directAnswer(session: ServiceSession, direct: DirectAnswer): Promise<Response> {
  await Promise.race([direct.headersSent, session.done]);
  const end = new PassThrough();
  session.done.then(
    () => end.end(),
    () => {
      direct.socket.destroy();
      end.end();
    },
  );
  // Nothing goes through it: it ends the response (headers sent already) once git has.
  return new FastResponse(end as unknown as ResponseBody, { status: 200 });
}

/** Resolves when `output` has its first bytes, ends, fails or closes; reads nothing. */
function outputStarts(output: Readable): Promise<void> {
  if (output.readableLength > 0 || output.readableEnded || output.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const settle = () => {
      for (const name of ['readable', 'error', 'close'] as const) output.off(name, settle);
      resolve();
    };
    for (const name of ['readable', 'error', 'close'] as const) output.on(name, settle);
  });
}

function noCache(contentType: string): ResponseHeaders {
  return {
    'content-type': contentType,
    'cache-control': 'no-cache, max-age=0, must-revalidate',
    expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
    pragma: 'no-cache',
  };
}
