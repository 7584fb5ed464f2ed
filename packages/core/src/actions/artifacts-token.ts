/**
 * The credentials of the artifact protocol, signed under keys derived from `[security] SECRET_KEY` (HKDF, one
 * purpose each, as `security/secrets.ts` and the container registry derive theirs): the runtime token a task gets
 * (`ACTIONS_RUNTIME_TOKEN`), a JWT as Gitea's `CreateAuthorizationToken` makes it, whose `scp` claim names the run
 * and job the way `@actions/artifact` reads them (`Actions.Results:<run>:<job>`); and the signatures of the upload
 * and download URLs the protocol hands out (Forgejo's `buildSignature`).
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a runtime token says: the task, its run and its job. */
export interface RuntimeClaims {
  taskId: number;
  runId: number;
  jobId: number;
}

/** A runtime token is good this long at most; the task must still be running when it is used, too. */
export const RUNTIME_TOKEN_SECONDS = 24 * 3600;
/** A signed upload or download URL is good this long (Forgejo's: an hour). */
export const SIGNED_URL_SECONDS = 3600;

const keys = new Map<string, Buffer>();
/** Stands in for an empty SECRET_KEY (only an embedder that asked for none): tokens then hold within this process. */
const processKey = randomBytes(32).toString('hex');

function keyOf(secretKey: string, purpose: string): Buffer {
  const id = `${purpose}\0${secretKey}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey === '' ? processKey : secretKey, 'repohost', purpose, 32));
    keys.set(id, key);
  }
  return key;
}

const RUNTIME_PURPOSE = 'actions runtime token';
const URL_PURPOSE = 'actions artifact url';
const JWT_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function createRuntimeToken(secretKey: string, claims: RuntimeClaims, nowSeconds: number): string {
  const payload = Buffer.from(
    JSON.stringify({
      scp: `Actions.Results:${claims.runId}:${claims.jobId}`,
      TaskID: claims.taskId,
      RunID: claims.runId,
      JobID: claims.jobId,
      iat: nowSeconds,
      nbf: nowSeconds,
      exp: nowSeconds + RUNTIME_TOKEN_SECONDS,
    }),
  ).toString('base64url');
  const signature = createHmac('sha256', keyOf(secretKey, RUNTIME_PURPOSE)).update(`${JWT_HEADER}.${payload}`).digest('base64url');
  return `${JWT_HEADER}.${payload}.${signature}`;
}

/** The claims of a runtime token this server signed and that has not expired; undefined for anything else. */
export function readRuntimeToken(secretKey: string, token: string, nowSeconds: number): RuntimeClaims | undefined {
  if (token.length > 4096) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', keyOf(secretKey, RUNTIME_PURPOSE)).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (head.alg !== 'HS256') return undefined;
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { TaskID, RunID, JobID, exp, nbf } = body;
    if (![TaskID, RunID, JobID, exp].every((value) => typeof value === 'number' && Number.isSafeInteger(value))) return undefined;
    if ((exp as number) < nowSeconds) return undefined;
    if (typeof nbf === 'number' && nbf > nowSeconds + 60) return undefined;
    return { taskId: TaskID as number, runId: RunID as number, jobId: JobID as number };
  } catch {
    return undefined;
  }
}

/** What a signed URL names: the endpoint it is for, the artifact, the task it was given to, and until when. */
export interface SignedArtifactUrl {
  endpoint: 'UploadArtifact' | 'DownloadArtifact';
  artifactId: number;
  taskId: number;
  /** Seconds since the epoch. */
  expires: number;
}

export function signArtifactUrl(secretKey: string, url: SignedArtifactUrl): string {
  return createHmac('sha256', keyOf(secretKey, URL_PURPOSE)).update(`${url.endpoint}\n${url.expires}\n${url.artifactId}\n${url.taskId}`).digest('base64url');
}

/** Whether `signature` is ours for the URL and the URL has not expired. */
export function verifyArtifactUrl(secretKey: string, url: SignedArtifactUrl, signature: string, nowSeconds: number): boolean {
  if (url.expires < nowSeconds) return false;
  const expected = Buffer.from(signArtifactUrl(secretKey, url), 'base64url');
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
