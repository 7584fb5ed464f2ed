/**
 * The artifact protocol of `actions/upload-artifact@v4` and `download-artifact@v4` (`@actions/artifact` v2), as
 * Forgejo's `routers/api/actions/artifactsv4.go` serves it: twirp calls (JSON) of
 * `github.actions.results.api.v1.ArtifactService` at `/twirp/…` (the client posts to the origin of
 * `ACTIONS_RESULTS_URL`), authenticated by the task's runtime token (`Authorization: Bearer`); and the signed URLs
 * they hand out, where the client speaks Azure's block blob protocol (Put Block, Put Block List) to upload and a plain
 * GET to download. No input answers a 500: what core refuses is a twirp error (or a plain one on the signed URLs)
 * with the status of its kind.
 */
import type { H3, H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { ArtifactsService, MAX_BLOCK_LIST_BYTES, RetryLaterError, isRepoHostError, type ActionArtifact, type ArtifactDownload, type RepoHost, type RepoHostErrorKind, type RuntimeTask, type SignedQuery } from '@repohost/core';
import { readBody } from '../api/router.js';
import { requestBody } from '../packages/common.js';
import { redirectAnswer } from '../serve-file.js';

const PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService';
/** A twirp call's JSON body at most (the largest, a Finalize, is a few hundred bytes). */
const MAX_CALL_BYTES = 64 * 1024;

/** twirp's error codes and their statuses (https://twitchtv.github.io/twirp/docs/spec_v7.html). */
const TWIRP_STATUS = {
  invalid_argument: 400,
  malformed: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  bad_route: 404,
  already_exists: 409,
  failed_precondition: 412,
  // twirp's is 429; a refusal of size or quota is final, and the client retries a 429, so it travels as a 413.
  resource_exhausted: 413,
  unavailable: 503,
  internal: 500,
} as const;
type TwirpCode = keyof typeof TWIRP_STATUS;

const CODE_OF_KIND: Partial<Record<RepoHostErrorKind, TwirpCode>> = {
  bad_request: 'invalid_argument',
  validation: 'invalid_argument',
  unauthorized: 'unauthenticated',
  forbidden: 'permission_denied',
  not_found: 'not_found',
  conflict: 'failed_precondition',
  payload_too_large: 'resource_exhausted',
  quota_exceeded: 'resource_exhausted',
  too_many_requests: 'unavailable',
  unavailable: 'unavailable',
  bad_gateway: 'unavailable',
};

class TwirpError extends Error {
  constructor(
    readonly code: TwirpCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;
const service = (host: RepoHost) => host.service(ArtifactsService);

/** The calls, each taking the authenticated task and the request's JSON. */
type Call = (host: RepoHost, rt: RuntimeTask, body: Body) => Promise<unknown>;

const CALLS = new Map<string, Call>(Object.entries({
  CreateArtifact: async (host, rt, body) => {
    const expires = field(body, 'expires_at', 'expiresAt');
    const { uploadUrl } = await service(host).create(rt, {
      runId: runIdOf(body),
      name: stringField(body, 'name'),
      expiresAt: typeof expires === 'string' ? new Date(expires) : undefined,
    });
    return { ok: true, signedUploadUrl: uploadUrl };
  },
  FinalizeArtifact: async (host, rt, body) => {
    const hash = field(body, 'hash');
    const artifact = await service(host).finalize(rt, { runId: runIdOf(body), name: stringField(body, 'name'), hash: typeof hash === 'string' ? hash : undefined });
    return { ok: true, artifactId: String(artifact.id) };
  },
  ListArtifacts: async (host, rt, body) => {
    const name = field(body, 'name_filter', 'nameFilter');
    const id = field(body, 'id_filter', 'idFilter');
    if (name !== undefined && typeof name !== 'string') throw new TwirpError('malformed', 'name_filter must be a string');
    if (id !== undefined && !(typeof id === 'string' || typeof id === 'number')) throw new TwirpError('malformed', 'id_filter must be an integer');
    const artifacts = await service(host).listOfTaskRun(rt, { runId: runIdOf(body), name, id: id === undefined ? undefined : Number(id) });
    return { artifacts: artifacts.map((artifact) => listed(artifact, body)) };
  },
  GetSignedArtifactURL: async (host, rt, body) => ({ signedUrl: await service(host).signedDownloadUrl(rt, { runId: runIdOf(body), name: stringField(body, 'name') }) }),
  DeleteArtifact: async (host, rt, body) => ({ ok: true, artifactId: String(await service(host).deleteOfTaskRun(rt, { runId: runIdOf(body), name: stringField(body, 'name') })) }),
} satisfies Record<string, Call>));

/** Mounts the protocol when Actions is on (`[actions] ENABLED`). */
export function registerArtifactsProtocol(app: H3, host: RepoHost): void {
  if (!host.settings.actions.ENABLED) return;
  app.put(`${PREFIX}/UploadArtifact`, (event) => upload(host, event));
  app.get(`${PREFIX}/DownloadArtifact`, (event) => download(host, event));
  app.post(`${PREFIX}/**`, (event) => serveCall(host, event));
}

async function serveCall(host: RepoHost, event: H3Event): Promise<Response> {
  try {
    const method = new URL(event.req.url).pathname.slice(PREFIX.length + 1);
    const handle = CALLS.get(method);
    if (!handle) throw new TwirpError('bad_route', `no handler for ${method}`);
    const type = (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') throw new TwirpError('bad_route', 'only the JSON encoding is served');
    const auth = event.req.headers.get('authorization') ?? '';
    const token = auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
    if (!token) throw new TwirpError('unauthenticated', 'a runtime token is required');
    const rt = await service(host).authenticate(token);
    const bytes = await readBody(event, MAX_CALL_BYTES).catch(() => {
      throw new TwirpError('malformed', `the request is larger than ${MAX_CALL_BYTES} bytes`);
    });
    let body: unknown;
    try {
      body = bytes.length === 0 ? {} : JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new TwirpError('malformed', 'the request is not JSON');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new TwirpError('malformed', 'the request is not a JSON object');
    const answer = await handle(host, rt, body as Body);
    return new FastResponse(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  } catch (error) {
    return twirpError(asTwirpError(error));
  }
}

/** A PUT to the signed upload URL: a block (`comp=block&blockid=…`) or the block list (`comp=blocklist`). */
async function upload(host: RepoHost, event: H3Event): Promise<Response> {
  try {
    const query = new URL(event.req.url).searchParams;
    const signed = signedQuery(query);
    const comp = (query.get('comp') ?? '').toLowerCase();
    if (comp === 'block' || comp === 'appendblock') {
      const blockId = query.get('blockid') ?? '';
      if (!blockId) throw new TwirpError('invalid_argument', 'blockid is required');
      await service(host).uploadBlock(signed, blockId, requestBody(event));
      return new FastResponse(null, { status: 201 });
    }
    if (comp === 'blocklist') {
      const bytes = await readBody(event, MAX_BLOCK_LIST_BYTES).catch(() => {
        throw new TwirpError('resource_exhausted', `the block list is larger than ${MAX_BLOCK_LIST_BYTES} bytes`);
      });
      await service(host).commitBlockList(signed, bytes.toString('utf8'));
      return new FastResponse(null, { status: 201 });
    }
    throw new TwirpError('invalid_argument', 'comp must be block or blocklist');
  } catch (error) {
    return twirpError(asTwirpError(error));
  }
}

/** A GET of the signed download URL: the zip. */
async function download(host: RepoHost, event: H3Event): Promise<Response> {
  try {
    return zipAnswer(await service(host).downloadSigned(signedQuery(new URL(event.req.url).searchParams)));
  } catch (error) {
    return twirpError(asTwirpError(error));
  }
}

/** The answer for an artifact's zip: a redirect to storage that serves it itself, or the bytes. */
export function zipAnswer(found: ArtifactDownload): Response {
  if (found.redirect !== undefined) return redirectAnswer(found.redirect);
  const name = `${found.artifact.artifact_name}.zip`;
  const headers = {
    'content-type': 'application/zip',
    'content-length': String(found.size),
    'content-disposition': `attachment; filename="${name.replaceAll('"', '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'x-content-type-options': 'nosniff',
  };
  return new FastResponse(found.stream as unknown as ConstructorParameters<typeof FastResponse>[0], { status: 200, headers });
}

function signedQuery(query: URLSearchParams): SignedQuery {
  return { sig: query.get('sig') ?? undefined, expires: query.get('expires') ?? undefined, artifactID: query.get('artifactID') ?? undefined, taskID: query.get('taskID') ?? undefined };
}

/** A field by its proto name or its JSON name (protojson accepts both). */
function field(body: Body, ...names: string[]): unknown {
  for (const name of names) if (body[name] !== undefined && body[name] !== null) return body[name];
  return undefined;
}

function stringField(body: Body, name: string): string {
  const value = field(body, name);
  if (typeof value !== 'string') throw new TwirpError('malformed', `${name} must be a string`);
  return value;
}

function runIdOf(body: Body): string {
  const value = field(body, 'workflow_run_backend_id', 'workflowRunBackendId');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** An artifact as ListArtifacts shows it (the backend ids as the request gave them, int64s as strings). */
function listed(artifact: ActionArtifact, body: Body): Record<string, unknown> {
  const item: Record<string, unknown> = {
    workflowRunBackendId: runIdOf(body),
    workflowJobRunBackendId: String(field(body, 'workflow_job_run_backend_id', 'workflowJobRunBackendId') ?? ''),
    databaseId: String(artifact.id),
    name: artifact.artifact_name,
    size: String(artifact.file_size),
    createdAt: new Date(artifact.created_unix * 1000).toISOString(),
  };
  if (artifact.hash_sha256) item.digest = `sha256:${artifact.hash_sha256}`;
  return item;
}

function asTwirpError(error: unknown): TwirpError {
  if (error instanceof TwirpError) return error;
  if (error instanceof RetryLaterError) return new TwirpError('unavailable', error.message, error.retryAfterSeconds);
  if (isRepoHostError(error)) return new TwirpError(CODE_OF_KIND[error.kind] ?? 'invalid_argument', error.message);
  console.error('[repohost] actions artifact protocol:', error);
  return new TwirpError('internal', 'internal error');
}

function twirpError(error: TwirpError): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return new FastResponse(JSON.stringify({ code: error.code, msg: error.message }), { status: TWIRP_STATUS[error.code], headers });
}
