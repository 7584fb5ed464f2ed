/**
 * The Cargo registry, as Forgejo serves it under `/api/packages/{owner}/cargo/…` (outside API v1), for Cargo's
 * sparse protocol (`sparse+{root}api/packages/{owner}/cargo/`): `GET /config.json`, the index files `/1/{name}`,
 * `/2/{name}`, `/3/{c}/{name}` and `/{ab}/{cd}/{name}`, and the web API: `GET /api/v1/crates?q=` search,
 * `PUT /api/v1/crates/new` publish, `GET …/{name}/{version}/download`, `DELETE …/{name}/{version}/yank`,
 * `PUT …/{name}/{version}/unyank`, `GET …/{name}/owners`. The API's errors are Cargo's shape
 * (`{"ok":false,"errors":[{"detail":"…"}]}`); credentials are what Cargo sends (its token verbatim in
 * `Authorization`, which Forgejo's documentation has users write as `Bearer <token>`), basic, or a token header.
 * Forgejo's git index (`_cargo-index`) is not served: Cargo reads this registry through the sparse protocol.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import {
  AccessMode,
  CargoPackagesService,
  PackagesService,
  type Actor,
  type RepoHost,
  type User,
} from '@repohost/core';
import { jsonAnswer, openRegistryRequest, registryRefusal, registrySegments, requestBody, servePackageFile } from './common.js';

/** Registers the Cargo registry's routes on the application (one line in `app.ts`). */
export function registerCargoPackages(app: H3, host: RepoHost): void {
  app.all('/api/packages/:owner/cargo/**', (event) => answer(host, event, (loaded) => route(host, event, loaded)));
}

interface Loaded {
  actor: Actor;
  owner: User;
  /** The path's segments after `/cargo/`, decoded. */
  segments: string[];
}

async function route(host: RepoHost, event: H3Event, { actor, owner, segments }: Loaded): Promise<Response> {
  const cargo = host.service(CargoPackagesService);
  const method = event.req.method;
  const read = method === 'GET' || method === 'HEAD';
  const [first, second, third] = segments;

  if (first === 'api' && second === 'v1' && third === 'crates') {
    const rest = segments.slice(3);
    if (rest.length === 0 && read) {
      const query = event.url.searchParams;
      return jsonAnswer(200, await cargo.search(actor, owner, query.get('q') ?? '', intParam(query.get('page')), intParam(query.get('per_page'))));
    }
    if (rest.length === 1 && rest[0] === 'new' && method === 'PUT') {
      // `reqPackageAccess(write)` before a byte of the body is read.
      await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
      await cargo.publish(actor, owner, requestBody(event));
      return jsonAnswer(200, { ok: true });
    }
    if (rest.length === 2 && rest[1] === 'owners' && read) return jsonAnswer(200, await cargo.owners(actor, owner));
    if (rest.length === 3) {
      const [name, version, action] = rest as [string, string, string];
      if (action === 'download' && read) return servePackageFile(event, await cargo.download(actor, owner, name, version, event.req.headers.get('range')));
      if ((action === 'yank' && method === 'DELETE') || (action === 'unyank' && method === 'PUT')) {
        await cargo.setYanked(actor, owner, name, version, action === 'yank');
        return jsonAnswer(200, { ok: true });
      }
    }
    return notFound();
  }
  if (!read) return notFound();
  if (segments.length === 1 && first === 'config.json') return jsonAnswer(200, await cargo.config(actor, owner));
  // Cargo's index layout; the leading segments only spread files over folders, the last one names the crate.
  const indexed = (segments.length === 2 && (first === '1' || first === '2')) || segments.length === 3;
  if (indexed) return indexAnswer(await cargo.indexFile(actor, owner, segments[segments.length - 1]!));
  return notFound();
}

/** Go's `strconv.Atoi` as `ctx.FormInt` reads it: 0 for anything that is not an integer. */
function intParam(value: string | null): number {
  if (value === null || !/^[+-]?\d{1,15}$/.test(value)) return 0;
  return Number.parseInt(value, 10);
}

/** Authenticates, loads the owner, checks read access, runs the route, and answers errors as Forgejo's Cargo routes do. */
async function answer(host: RepoHost, event: H3Event, handler: (loaded: Loaded) => Promise<Response>): Promise<Response> {
  // A publish refused before its body was read leaves bytes on the connection that no request can follow.
  const closeAfterError = event.req.method === 'PUT';
  try {
    const opened = await openRegistryRequest(host, event, plain);
    if (opened instanceof Response) return opened;
    return await handler({ ...opened, segments: registrySegments(event, 'cargo') });
  } catch (error) {
    const refused = refusal(error);
    if (closeAfterError) refused.headers.set('connection', 'close');
    return refused;
  }
}

function refusal(error: unknown): Response {
  return registryRefusal(error, 'cargo', apiError);
}

/** Forgejo's `apiError`: Cargo's error document, the message as `detail`. */
function apiError(status: number, detail: string): Response {
  return jsonAnswer(status, { ok: false, errors: [{ detail }] });
}

function notFound(): Response {
  return plain(404, 'Not Found');
}

/** Forgejo's `ctx.PlainTextBytes`: an index file is text, one JSON line per version. */
function indexAnswer(text: string): Response {
  return new FastResponse(text, {
    status: 200,
    headers: { 'content-type': 'text/plain;charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'x-content-type-options': 'nosniff' },
  });
}

/** Go's `http.Error`, as `ctx.Error` writes the group's refusals. */
function plain(status: number, message: string): Response {
  return new FastResponse(`${message}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  });
}
