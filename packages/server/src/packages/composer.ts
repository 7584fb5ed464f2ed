/**
 * The Composer registry, as Forgejo serves it under `/api/packages/{owner}/composer…` (outside API v1), for a
 * project's `"repositories": [{"type": "composer", "url": "{root}api/packages/{owner}/composer"}]`:
 * `GET packages.json` (the service index), `GET search.json?q=&type=&page=&per_page=`, `GET list.json`,
 * `GET p2/{vendor}/{project}.json` (and `…~dev.json`, the same answer: every version), `GET files/{package}/{version}/{filename}`
 * (the package escaped into one segment, as the metadata's dist URLs write it; `{vendor}/{project}` as two segments
 * is taken too), and `PUT` of a package zip on the registry's URL itself (`?version=` when composer.json has none;
 * 201). Errors are Forgejo's Composer document (`{"errors":[{"status","message"}]}`); credentials are basic
 * (password or token, as Composer sends `http-basic` auth) or a token header.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import {
  AccessMode,
  ComposerPackagesService,
  PackagesService,
  type RepoHost,
} from '@repohost/core';
import { jsonAnswer, plainText, registryAnswer, type RegistryRequest, registrySegments, requestBody, servePackageFile } from './common.js';

/** Registers the Composer registry's routes on the application (one line in `app.ts`). */
export function registerComposerPackages(app: H3, host: RepoHost): void {
  const handler = (event: H3Event) => answer(host, event);
  // The upload is a PUT on the registry's URL itself.
  app.all('/api/packages/:owner/composer', handler);
  app.all('/api/packages/:owner/composer/**', handler);
}

async function route(host: RepoHost, event: H3Event, { actor, owner }: RegistryRequest): Promise<Response> {
  const composer = host.service(ComposerPackagesService);
  const method = event.req.method;
  const segments = registrySegments(event, 'composer');
  const query = event.url.searchParams;
  if (segments.length === 0) {
    if (method !== 'PUT') return notFound();
    // `reqPackageAccess(write)` before a byte of the body is read.
    await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
    await composer.upload(actor, owner, requestBody(event), query.get('version') ?? '');
    return new FastResponse(null, { status: 201 });
  }
  if (method !== 'GET' && method !== 'HEAD') return notFound();
  const [first] = segments;
  if (segments.length === 1 && first === 'packages.json') return jsonAnswer(200, await composer.serviceIndex(actor, owner));
  if (segments.length === 1 && first === 'list.json') return jsonAnswer(200, await composer.list(actor, owner));
  if (segments.length === 1 && first === 'search.json') {
    const search = await composer.search(actor, owner, (query.get('q') ?? '').trim(), (query.get('type') ?? '').trim(), intParam(query.get('page')), intParam(query.get('per_page')));
    return jsonAnswer(200, search);
  }
  if (segments.length === 3 && first === 'p2') {
    const [, vendor, file] = segments as [string, string, string];
    // Forgejo's routes `{projectname}~dev.json` and `{projectname}.json` give the same answer.
    const project = file.endsWith('~dev.json') ? file.slice(0, -'~dev.json'.length) : file.endsWith('.json') ? file.slice(0, -'.json'.length) : undefined;
    if (project === undefined || project === '') return notFound();
    return jsonAnswer(200, await composer.packageMetadata(actor, owner, `${vendor}/${project}`));
  }
  if (first === 'files' && (segments.length === 4 || segments.length === 5)) {
    const [name, version, filename] = segments.length === 4 ? (segments.slice(1) as [string, string, string]) : [`${segments[1]}/${segments[2]}`, segments[3]!, segments[4]!];
    return servePackageFile(event, await composer.download(actor, owner, name, version, filename, event.req.headers.get('range')));
  }
  return notFound();
}

/** Go's `strconv.Atoi` as `ctx.FormInt` reads it: 0 for anything that is not an integer. */
function intParam(value: string | null): number {
  if (value === null || !/^[+-]?\d{1,15}$/.test(value)) return 0;
  return Number.parseInt(value, 10);
}

/**
 * The registry's checks, then the route; what it throws answered as Forgejo's Composer routes do. An upload
 * refused before its body was read leaves bytes on the connection that no request can follow: it is closed.
 */
function answer(host: RepoHost, event: H3Event): Promise<Response> {
  return registryAnswer(host, event, 'composer', (request) => route(host, event, request), { upload: event.req.method === 'PUT', answer: apiError });
}

/** Forgejo's Composer `apiError`: `{"errors":[{"status":…,"message":…}]}`. */
function apiError(status: number, message: string): Response {
  return jsonAnswer(status, { errors: [{ status, message }] });
}

function notFound(): Response {
  return plainText(404, 'Not Found', true);
}
