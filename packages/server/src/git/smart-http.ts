import { PassThrough, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { H3, H3Event } from 'h3';
import { getRouterParams } from 'h3';
import { FastResponse } from 'srvx';
import { FLUSH_PKT, ForbiddenError, NotFoundError, pktLine, scopesGrant, type GitService, type RepoHost } from '@repohost/core';
import { authenticate, type Authentication } from '../auth.js';
import { errorResponse, missingScopeError, requestCredentials, type ResponseHeaders } from '../api/router.js';
import { HttpError } from '../api/errors.js';

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
    const advertisement = await host.transfer.advertise(auth.actor, { owner, name: repo, service, protocol });
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
      const input = requestBody(event);
      const protocol = event.req.headers.get('git-protocol') ?? undefined;
      const session = await host.transfer.run(auth.actor, { owner, name: repo, service, protocol }, input, { stateless: true });
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
      return new FastResponse(Readable.toWeb(body) as ReadableStream, { status: 200, headers: noCache(`application/x-${serviceName}-result`) });
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
    const { owner, repo } = getRouterParams(event, { decode: true }) as { owner: string; repo: string };
    const auth = await authenticate(host, requestCredentials(event), { allowReverseProxy: false });
    return await run(auth, owner, repo);
  } catch (error) {
    const status = error instanceof NotFoundError ? new NotFoundError('Repository not found') : error;
    return errorResponse(host, status, {}, { challenge: true });
  }
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

function requestBody(event: H3Event): Readable {
  const nodeReq = (event.runtime as { node?: { req?: Readable } } | undefined)?.node?.req;
  const raw = nodeReq ?? (event.req.body ? Readable.fromWeb(event.req.body as never) : Readable.from([]));
  if ((event.req.headers.get('content-encoding') ?? '').toLowerCase() === 'gzip') {
    const gunzip = createGunzip();
    raw.on('error', (error) => gunzip.destroy(error));
    return raw.pipe(gunzip);
  }
  return raw;
}

function noCache(contentType: string): ResponseHeaders {
  return {
    'content-type': contentType,
    'cache-control': 'no-cache, max-age=0, must-revalidate',
    expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
    pragma: 'no-cache',
  };
}
