/**
 * The Debian registry, as Forgejo serves it under `/api/packages/{owner}/debian/…` (outside API v1), for apt:
 * `GET repository.key` (the owner's signing key, armored), `GET dists/{distribution}/{Release,Release.gpg,InRelease}`,
 * `GET dists/{distribution}/{component}/binary-{arch}/{Packages,Packages.gz}`, `GET …/by-hash/{algorithm}/{hash}`
 * beside either, `PUT pool/{distribution}/{component}/upload` (the .deb as the body; 201),
 * `GET pool/{distribution}/{component}/{name}_{version}_{arch}.deb`, and
 * `DELETE pool/{distribution}/{component}/{name}/{version}/{arch}` (204). Answers are plain text as Forgejo's
 * package routes write them; credentials are basic (password or token) or a token header.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { AccessMode, DebianPackagesService, PackagesService, type RepoHost } from '@repohost/core';
import { plainRegistryAnswer, plainText, registrySegments, requestBody, servePackageFile, type RegistryRequest } from './common.js';

/** Registers the Debian registry's routes on the application (one line in `app.ts`). */
export function registerDebianPackages(app: H3, host: RepoHost): void {
  app.all('/api/packages/:owner/debian/**', (event) =>
    plainRegistryAnswer(host, event, 'debian', (request) => route(host, event, request), event.req.method === 'PUT'),
  );
}

/** What Go's `ServeContent` would call the index files (it sniffs them). */
function contentTypeOf(filename: string): string {
  return filename.endsWith('.gz') ? 'application/gzip' : 'text/plain; charset=utf-8';
}

async function route(host: RepoHost, event: H3Event, { actor, owner }: RegistryRequest): Promise<Response> {
  const debian = host.service(DebianPackagesService);
  const method = event.req.method;
  const read = method === 'GET' || method === 'HEAD';
  const range = event.req.headers.get('range');
  const s = registrySegments(event, 'debian');

  if (s.length === 1 && s[0] === 'repository.key') {
    if (!read) return plainText(405, '');
    const key = await debian.repositoryKey(actor, owner);
    return new FastResponse(key, {
      status: 200,
      headers: {
        'content-type': 'application/pgp-keys',
        'content-disposition': 'attachment; filename="repository.key"',
        'x-content-type-options': 'nosniff',
        'content-length': String(Buffer.byteLength(key)),
      },
    });
  }

  if (s[0] === 'dists' && s.length >= 3) {
    if (!read) return plainText(405, '');
    const distribution = s[1]!;
    // `dists/{distribution}/by-hash/{algorithm}/{hash}` and `dists/{distribution}/{component}/{arch}/by-hash/…`.
    if ((s.length === 5 && s[2] === 'by-hash') || (s.length === 7 && s[4] === 'by-hash')) {
      const download = await debian.repositoryFileByHash(actor, owner, s.at(-2)!, s.at(-1)!, range);
      return servePackageFile(event, download, contentTypeOf(download.file.name));
    }
    if (s.length === 3) return servePackageFile(event, await debian.repositoryFile(actor, owner, distribution, s[2]!, undefined, undefined, range), contentTypeOf(s[2]!));
    if (s.length === 5) return servePackageFile(event, await debian.repositoryFile(actor, owner, distribution, s[4]!, s[2]!, s[3]!, range), contentTypeOf(s[4]!));
    return plainText(404, '');
  }

  if (s[0] === 'pool' && s.length >= 4) {
    const [, distribution, component] = s as [string, string, string];
    if (s.length === 4 && s[3] === 'upload') {
      if (method !== 'PUT') return plainText(405, '');
      // `reqPackageAccess(write)` before a byte of the body is read.
      await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
      await debian.upload(actor, owner, distribution, component, requestBody(event));
      return plainText(201, '');
    }
    if (s.length === 4 && s[3]!.endsWith('.deb')) {
      if (!read) return plainText(405, '');
      // `{name}_{version}_{architecture}.deb`: names and versions have no `_`.
      const stem = s[3]!.slice(0, -'.deb'.length);
      const first = stem.indexOf('_');
      const second = first < 0 ? -1 : stem.indexOf('_', first + 1);
      if (first <= 0 || second <= first + 1 || second === stem.length - 1) return plainText(404, '');
      const download = await debian.download(actor, owner, distribution, component, stem.slice(0, first), stem.slice(first + 1, second), stem.slice(second + 1), range);
      return servePackageFile(event, download, 'application/vnd.debian.binary-package');
    }
    if (s.length === 6) {
      if (method !== 'DELETE') return plainText(405, '');
      await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
      await debian.delete(actor, owner, distribution, component, s[3]!, s[4]!, s[5]!);
      return new FastResponse(null, { status: 204 });
    }
  }
  return plainText(404, '');
}
