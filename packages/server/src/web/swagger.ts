import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { H3 } from 'h3';
import { FastResponse } from 'srvx';
import type { RepoHost } from '@repohost/core';
import { SWAGGER_INIT_PATH, fileAnswer } from './assets.js';
import { html } from './html.js';
import { appName, pageHeaders, rootPath } from './layout.js';

/**
 * `/api/swagger`: Swagger UI (the `swagger-ui-dist` package, its files served from the package) over
 * `/swagger.v1.json`, mounted as Forgejo mounts it: only with `[api] ENABLE_SWAGGER`. The page runs no inline
 * script (a small initializer file of ours starts the UI) under a policy that allows scripts and styles from us only.
 */

/** The package's files the page uses, and their types. Nothing else of the package is served. */
const FILES = new Map([
  ['swagger-ui-bundle.js', 'text/javascript;charset=utf-8'],
  ['swagger-ui.css', 'text/css;charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

/**
 * Swagger UI sets styles through the DOM (allowed), draws its icons from `data:` SVGs in its stylesheet, and asks
 * only our server for the document (and, when someone tries an operation, the API).
 */
const SWAGGER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

interface Dist {
  folder: string;
  version: string;
}

let dist: Promise<Dist> | undefined;

/** The installed package's folder and version (the version names the files' URLs, so each release is cached anew). */
function swaggerDist(): Promise<Dist> {
  return (dist ??= (async () => {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('swagger-ui-dist/package.json');
    const folder = join(manifest, '..');
    const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
    return { folder, version };
  })());
}

const loaded = new Map<string, Promise<Buffer>>();

export function registerSwaggerUi(app: H3, host: RepoHost): void {
  if (!host.settings.api.ENABLE_SWAGGER) return;
  app.get('/api/swagger', async () => {
    const { version } = await swaggerDist();
    const root = rootPath(host);
    const files = `${root}assets/swagger-ui/${encodeURIComponent(version)}`;
    const doc = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${appName(host)} API</title>
<link rel="icon" type="image/png" href="${files}/favicon-32x32.png">
<link rel="stylesheet" href="${files}/swagger-ui.css">
</head><body>
<div id="swagger-ui" data-url="${root}swagger.v1.json"><noscript><p>The API documentation needs JavaScript; the document itself is at <a href="${root}swagger.v1.json">swagger.v1.json</a>.</p></noscript></div>
<script src="${files}/swagger-ui-bundle.js"></script>
<script src="${root}${SWAGGER_INIT_PATH}"></script>
</body></html>
`;
    return new FastResponse(doc.value, { headers: pageHeaders(Buffer.byteLength(doc.value), SWAGGER_CSP) });
  });
  app.get('/assets/swagger-ui/:version/:file', async (event) => {
    const { folder, version } = await swaggerDist();
    const params = event.context.params ?? {};
    const type = FILES.get(params.file ?? '');
    if (params.version !== version || !type) return new FastResponse('Not found\n', { status: 404, headers: { 'content-type': 'text/plain;charset=utf-8' } });
    const name = params.file!;
    let body = loaded.get(name);
    if (!body) {
      body = readFile(join(folder, name));
      loaded.set(name, body);
      body.catch(() => loaded.delete(name));
    }
    return fileAnswer(event.req, await body, type, `"${version}-${name}"`);
  });
}
