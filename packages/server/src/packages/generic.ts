/**
 * The generic package registry, as Forgejo serves it under `/api/packages/{owner}/generic/…` (outside API v1):
 * `PUT …/{name}/{version}/{filename}` uploads a file (201), `GET` of it downloads it, `DELETE` of it removes it
 * (the version with its last file), `DELETE …/{name}/{version}` removes the version (204). Answers are plain text
 * as Forgejo's package routes write them; credentials are basic (password or token) or a token header.
 */
import type { H3, H3Event } from 'h3';
import { getRouterParam } from 'h3';
import { FastResponse } from 'srvx';
import { AccessMode, PackagesService, type RepoHost } from '@repohost/core';
import { decodeSegment, plainRegistryAnswer, plainText, requestBody, servePackageFile } from './common.js';

const PREFIX = '/api/packages/:owner/generic/:name/:version';

/** Registers the generic registry's routes on the application (one line in `app.ts`). */
export function registerGenericPackages(app: H3, host: RepoHost): void {
  const service = () => host.service(PackagesService);
  const params = (event: H3Event) => ({
    name: decodeParam(event, 'name'),
    version: decodeParam(event, 'version'),
    filename: decodeParam(event, 'filename'),
  });

  app.put(`${PREFIX}/:filename`, (event) =>
    plainRegistryAnswer(host, event, 'generic', async ({ actor, owner }) => {
      const { name, version, filename } = params(event);
      // Refused before a byte of the body is read: no write access (401), a bad name (400).
      await service().assertAccess(actor, owner, AccessMode.Write);
      await service().uploadGeneric(actor, owner, name, version, filename, requestBody(event));
      return plainText(201, '');
    }),
  );
  app.get(`${PREFIX}/:filename`, (event) =>
    plainRegistryAnswer(host, event, 'generic', async ({ actor, owner }) => {
      const { name, version, filename } = params(event);
      return servePackageFile(event, await service().download(actor, owner, { type: 'generic', name, version }, filename, event.req.headers.get('range')));
    }),
  );
  app.delete(`${PREFIX}/:filename`, (event) =>
    plainRegistryAnswer(host, event, 'generic', async ({ actor, owner }) => {
      const { name, version, filename } = params(event);
      await service().deleteFile(actor, owner, { type: 'generic', name, version }, filename);
      return new FastResponse(null, { status: 204 });
    }),
  );
  app.delete(PREFIX, (event) =>
    plainRegistryAnswer(host, event, 'generic', async ({ actor, owner }) => {
      const { name, version } = params(event);
      await service().deleteVersion(actor, owner, { type: 'generic', name, version });
      return new FastResponse(null, { status: 204 });
    }),
  );
}

function decodeParam(event: H3Event, name: string): string {
  return decodeSegment(getRouterParam(event, name) ?? '');
}
