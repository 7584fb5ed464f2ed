/**
 * The Helm chart repository, as Forgejo serves it under `/api/packages/{owner}/helm/…` (outside API v1), for
 * `helm repo add {root}api/packages/{owner}/helm` and uploads as Forgejo documents them (`curl --data-binary
 * @chart.tgz …/api/charts`, or `helm cm-push`'s form): `GET /index.yaml` the repository index, `GET /{filename}` a
 * chart archive, `POST /api/charts` an upload (201). Errors are Forgejo's `{"error": "…"}`; credentials are basic
 * (password or token, as helm sends them) or a token header. `helm push oci://…` goes to the container registry.
 */
import type { H3, H3Event } from 'h3';
import { getRouterParam } from 'h3';
import { FastResponse } from 'srvx';
import {
  AccessMode,
  HelmPackagesService,
  PackagesService,
  type RepoHost,
} from '@repohost/core';
import { readMultipartFile } from '../api/multipart.js';
import { decodeSegment, registryAnswer, type RegistryRequest, requestBody, servePackageFile } from './common.js';

/** Registers the Helm registry's routes on the application (one line in `app.ts`). */
export function registerHelmPackages(app: H3, host: RepoHost): void {
  const helm = () => host.service(HelmPackagesService);
  app.get('/api/packages/:owner/helm/index.yaml', (event) =>
    answer(host, event, async ({ actor, owner }) => {
      const text = await helm().index(actor, owner);
      // Forgejo writes the YAML without a type: Go's sniffing names it plain text.
      return new FastResponse(text, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) } });
    }),
  );
  app.get('/api/packages/:owner/helm/:filename', (event) =>
    answer(host, event, async ({ actor, owner }) =>
      servePackageFile(event, await helm().download(actor, owner, decodeSegment(getRouterParam(event, 'filename') ?? ''), event.req.headers.get('range'))),
    ),
  );
  app.post('/api/packages/:owner/helm/api/charts', (event) =>
    answer(
      host,
      event,
      async ({ actor, owner }) => {
        // `reqPackageAccess(write)` before a byte of the body is read.
        await host.service(PackagesService).assertAccess(actor, owner, AccessMode.Write);
        await helm().upload(actor, owner, await uploadStream(event));
        return new FastResponse(null, { status: 201 });
      },
      true,
    ),
  );
}

/**
 * Forgejo's `ctx.UploadStream`: the body, or for a form (what `helm cm-push` sends) its file; cm-push names the
 * field `chart`, which is the form's first file as Forgejo takes it.
 */
async function uploadStream(event: H3Event): Promise<AsyncIterable<Uint8Array>> {
  const contentType = event.req.headers.get('content-type') ?? '';
  // The type is matched in any case; the boundary in it is passed on as sent.
  if (contentType.toLowerCase().startsWith('multipart/form-data')) {
    return (await readMultipartFile(event.req.body as AsyncIterable<Uint8Array> | null, contentType, 'chart')).stream;
  }
  return requestBody(event);
}

/** The registry's checks, then the route, its errors answered as Forgejo's helm `apiError` does. */
function answer(host: RepoHost, event: H3Event, handler: (request: RegistryRequest) => Promise<Response>, upload = false): Promise<Response> {
  return registryAnswer(host, event, 'helm', handler, { upload, answer: apiError });
}

/** Forgejo's helm `apiError`: `{"error": message}`. */
function apiError(status: number, message: string): Response {
  const text = JSON.stringify({ error: message });
  return new FastResponse(text, {
    status,
    headers: { 'content-type': 'application/json;charset=utf-8', 'content-length': String(Buffer.byteLength(text)) },
  });
}
