/**
 * The Go registry, as Forgejo serves it under `/api/packages/{owner}/go/…` (outside API v1): `PUT /go/upload` a
 * module zip (the raw body, as `curl --upload-file` sends it; 201), and the GOPROXY protocol the `go` command reads
 * with `GOPROXY={root}api/packages/{owner}/go`: `{module}/@v/list`, `{module}/@v/{version}.info`, `.mod`, `.zip`
 * and `{module}/@latest` (`latest` as a version reads the newest). Module paths and versions come case-encoded
 * (`!` and a lower-case letter for a capital) as the protocol writes them, and are decoded here (Forgejo matches
 * them as sent, so `go` cannot fetch a module with a capital from it); text that is not so encoded is taken as sent.
 * `sumdb/sum.golang.org/supported` is 404: the `go` command then asks the checksum database directly. Answers are
 * plain text as Forgejo's package routes write them; credentials are basic (password or token, as `go` sends
 * those of the GOPROXY URL or `.netrc`) or a token header.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { AccessMode, GoPackagesService, PackagesService, unescapeGoPath, type RepoHost } from '@repohost/core';
import { decodeSegment, plainRegistryAnswer, plainText, registryPath, requestBody, servePackageFile, type RegistryRequest } from './common.js';

/** Registers the Go registry's routes on the application (one line in `app.ts`). */
export function registerGoPackages(app: H3, host: RepoHost): void {
  app.all('/api/packages/:owner/go/**', (event) =>
    plainRegistryAnswer(
      host,
      event,
      'go',
      // Forgejo's router strips a trailing slash.
      ({ actor, owner }) => route(host, event, { actor, owner, rest: decodeSegment(registryPath(event, 'go')).replace(/\/$/, '') }),
      event.req.method === 'PUT',
    ),
  );
}

interface Loaded extends RegistryRequest {
  /** The path after `/go/`, percent-decoded. */
  rest: string;
}

async function route(host: RepoHost, event: H3Event, { actor, owner, rest }: Loaded): Promise<Response> {
  const go = host.service(GoPackagesService);
  const method = event.req.method;
  if (rest === 'upload') {
    if (method !== 'PUT') return plainText(405, '');
    // `reqPackageAccess(write)` before a byte of the body is read.
    await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
    await go.upload(actor, owner, requestBody(event));
    return plainText(201, '');
  }
  if (method !== 'GET' && method !== 'HEAD') return plainText(405, '');
  if (rest === 'sumdb/sum.golang.org/supported') return plainText(404, '');
  if (rest.endsWith('/@latest')) return infoAnswer(await go.info(actor, owner, moduleName(rest.slice(0, -'/@latest'.length)), 'latest'));
  const at = rest.indexOf('/@v/');
  if (at < 0) return plainText(404, '');
  const name = moduleName(rest.slice(0, at));
  const file = rest.slice(at + '/@v/'.length);
  if (file === 'list') {
    const list = await go.versionList(actor, owner, name);
    // Forgejo's `apiError(404, nil)`: no message.
    return list === undefined ? plainText(404, '') : plainText(200, list);
  }
  if (file.endsWith('.zip')) return servePackageFile(event, await go.download(actor, owner, name, version(file.slice(0, -4)), event.req.headers.get('range')));
  if (file.endsWith('.info')) return infoAnswer(await go.info(actor, owner, name, version(file.slice(0, -5))));
  if (file.endsWith('.mod')) return plainText(200, await go.goMod(actor, owner, name, version(file.slice(0, -4))));
  return plainText(404, '');
}

/** The protocol's case-encoding undone; a path that is not so encoded is taken as it is (as Forgejo takes it). */
function moduleName(escaped: string): string {
  return unescapeGoPath(escaped) ?? escaped;
}

function version(escaped: string): string {
  return unescapeGoPath(escaped) ?? escaped;
}

/** Forgejo's `ctx.JSON` of `{Version, Time}`. */
function infoAnswer(info: { Version: string; Time: string }): Response {
  const text = JSON.stringify(info);
  return new FastResponse(text, { status: 200, headers: { 'content-type': 'application/json;charset=utf-8', 'content-length': String(Buffer.byteLength(text)) } });
}
