/**
 * The Maven registry, as Forgejo serves it under `/api/packages/{owner}/maven/…` (outside API v1), for Maven and
 * Gradle: `PUT` of a file at its Maven path (201; its checksums 200 when they match the stored file; the package's
 * `maven-metadata.xml` 200 and ignored), `GET`/`HEAD` of a file, of its checksums, and of the package's
 * `maven-metadata.xml` Forgejo builds from the versions. Errors are plain text as Forgejo's Maven routes write them;
 * credentials are basic (password or token, as `settings.xml` gives them) or a token header.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { AccessMode, MavenPackagesService, PackagesService, parseMavenPath, type MavenAnswer, type RepoHost } from '@repohost/core';
import { pathEscape, rangedFileAnswer, redirectAnswer } from '../serve-file.js';
import { decodeSegment, plainRegistryAnswer, plainText, registryPath, requestBody, type RegistryRequest } from './common.js';

/** Registers the Maven registry's routes on the application (one line in `app.ts`). */
export function registerMavenPackages(app: H3, host: RepoHost): void {
  app.all('/api/packages/:owner/maven/**', (event) =>
    plainRegistryAnswer(
      host,
      event,
      'maven',
      ({ actor, owner }) => route(host, event, { actor, owner, segments: registryPath(event, 'maven').split('/').map(decodeSegment) }),
      event.req.method === 'PUT',
    ),
  );
}

interface Loaded extends RegistryRequest {
  /** The path's segments after `/maven/`, decoded. */
  segments: string[];
}

async function route(host: RepoHost, event: H3Event, { actor, owner, segments }: Loaded): Promise<Response> {
  const maven = host.service(MavenPackagesService);
  const method = event.req.method;
  if (method === 'PUT') {
    // `reqPackageAccess(write)` before the path is read or a byte of the body.
    await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
    const outcome = await maven.upload(actor, owner, parseMavenPath(segments), requestBody(event));
    if (outcome === 'ignored') {
      // Forgejo answers without reading the body: the connection cannot carry another request unless it was empty.
      const ignored = empty(200);
      if (event.req.headers.get('content-length') !== '0') ignored.headers.set('connection', 'close');
      return ignored;
    }
    return empty(outcome === 'created' ? 201 : 200);
  }
  if (method === 'GET' || method === 'HEAD') {
    const path = parseMavenPath(segments);
    return serve(event, await maven.get(actor, owner, path, method === 'GET', event.req.headers.get('range')));
  }
  return plainText(405, 'Method Not Allowed');
}

/** Forgejo's answers: the generated metadata as `text/xml`, checksums as plain text, files as `ServePackageFile` gives them. */
async function serve(event: H3Event, found: MavenAnswer): Promise<Response> {
  if (found.kind === 'checksum') {
    const answered = plainText(200, found.text);
    if (found.lastModified !== undefined) answered.headers.set('last-modified', httpDate(found.lastModified));
    return answered;
  }
  if (found.kind === 'metadata') {
    return new FastResponse(event.req.method === 'HEAD' ? null : found.xml, {
      status: 200,
      headers: { 'content-type': 'text/xml', 'content-length': String(found.xml.length), 'last-modified': httpDate(found.lastModified) },
    });
  }
  const { file, body, range, redirect } = found.download;
  const headers: Record<string, string> = {
    'content-type': found.contentType,
    'last-modified': httpDate(file.created_unix),
    'x-content-type-options': 'nosniff',
  };
  if (event.req.method === 'HEAD') {
    headers['content-length'] = String(file.blob.size);
    return new FastResponse(null, { status: 200, headers });
  }
  if (redirect) return redirectAnswer(redirect);
  const quoted = file.name.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  headers['content-disposition'] = `attachment; filename="${Buffer.from(quoted, 'utf8').toString('latin1')}"; filename*=UTF-8''${pathEscape(file.name)}`;
  headers['access-control-expose-headers'] = 'Content-Disposition';
  headers['accept-ranges'] = 'bytes';
  return rangedFileAnswer(event, { body, size: file.blob.size, range }, headers);
}

function httpDate(unix: number): string {
  return new Date(unix * 1000).toUTCString();
}

function empty(status: number): Response {
  return new FastResponse(null, { status });
}
