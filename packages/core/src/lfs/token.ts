/**
 * The JWTs `git-lfs-authenticate` hands out over SSH and the LFS routes accept as `Authorization: Bearer …`, as
 * Forgejo makes them: HS256 under `[server] LFS_JWT_SECRET`, claims `RepoID`, `Op` (`upload` or `download`),
 * `UserID`, `exp` and `nbf`. With no LFS_JWT_SECRET configured, the key is derived from `[security] SECRET_KEY`
 * (HKDF, a purpose of its own), so every process of an installation signs and checks with the same key.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '../config/index.js';
import { trimEnd } from '../text.js';

export interface LfsTokenClaims {
  repoId: number;
  op: 'upload' | 'download';
  userId: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const PURPOSE = 'lfs jwt';
/** Longer than any token this server signs. */
const MAX_TOKEN_LENGTH = 2048;
/** Stands in for an empty SECRET_KEY (an embedder that asked for none): tokens hold within this process. */
const processKey = randomBytes(32).toString('hex');
const keys = new Map<string, Buffer>();

/** The signing key: LFS_JWT_SECRET (base64url of at least 32 bytes), else one derived from SECRET_KEY. */
export function lfsJwtKey(jwtSecret: string, secretKey: string): Buffer {
  const id = `${jwtSecret}\0${secretKey}`;
  let key = keys.get(id);
  if (key) return key;
  if (jwtSecret.trim() !== '') {
    const text = jwtSecret.trim();
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) throw new ConfigError('[server] LFS_JWT_SECRET: not base64url');
    key = Buffer.from(trimEnd(text, '='), 'base64url');
    if (key.length < 32) throw new ConfigError('[server] LFS_JWT_SECRET: must be the base64url of 32 bytes or more');
  } else {
    key = Buffer.from(hkdfSync('sha256', secretKey === '' ? processKey : secretKey, 'repohost', PURPOSE, 32));
  }
  keys.set(id, key);
  return key;
}

export function signLfsToken(key: Buffer, claims: LfsTokenClaims, nowSeconds: number, expirySeconds: number): string {
  const payload = Buffer.from(
    JSON.stringify({ RepoID: claims.repoId, Op: claims.op, UserID: claims.userId, exp: nowSeconds + expirySeconds, nbf: nowSeconds }),
  ).toString('base64url');
  const signature = createHmac('sha256', key).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

/** The claims of a token signed with `key`, in its validity window; undefined for anything else. */
export function readLfsToken(key: Buffer, token: string, nowSeconds: number): LfsTokenClaims | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  let headerJson: unknown;
  try {
    headerJson = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof headerJson !== 'object' || headerJson === null || (headerJson as { alg?: unknown }).alg !== 'HS256') return undefined;
  const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof claims !== 'object' || claims === null) return undefined;
  const { RepoID, Op, UserID, exp, nbf } = claims;
  if (typeof exp === 'number' && exp < nowSeconds) return undefined;
  if (typeof nbf === 'number' && nbf > nowSeconds + 60) return undefined;
  if (!Number.isSafeInteger(RepoID) || !Number.isSafeInteger(UserID) || (Op !== 'upload' && Op !== 'download')) return undefined;
  return { repoId: RepoID as number, op: Op, userId: UserID as number };
}
