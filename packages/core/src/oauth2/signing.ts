import { createHash, createPrivateKey, createPublicKey, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const generateRsa = promisify(generateKeyPair);

/** The public half as a JWK, with its RFC 7638 thumbprint as `kid`. */
export interface SigningJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

export interface SigningKey {
  privateKey: KeyObject;
  jwk: SigningJwk;
}

/**
 * 2048 bits: RS256's usual size, and quick to generate on the first start (4096, Forgejo's, takes seconds on a
 * small machine and buys nothing for a key that only signs ID tokens).
 */
const MODULUS_BITS = 2048;

/**
 * The ID-token signing key, kept as PKCS#8 PEM at `file` (Forgejo's `jwt/private.pem` under the data path),
 * created when absent. Several processes may start at once on one data folder (a shared volume): a new key is
 * written whole to a file of its own beside `file` and then hard-linked to `file`, which fails when `file` exists,
 * so a reader sees no key or a whole one, never half of one, and the processes of a first start all end up with the
 * key of the first link (the others read it).
 */
export async function loadOrCreateSigningKey(file: string): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { privateKey } = await generateRsa('rsa', { modulusLength: MODULUS_BITS });
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await placeExclusively(file, privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
    pem = await readFile(file, 'utf8');
  }
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error(`${file}: the OAuth2 signing key must be an RSA key`);
  const { n, e, kty } = createPublicKey(privateKey).export({ format: 'jwk' }) as { n: string; e: string; kty: string };
  // RFC 7638: the required members in lexicographic order, no whitespace.
  const kid = createHash('sha256').update(JSON.stringify({ e, kty, n })).digest('base64url');
  return { privateKey, jwk: { kty, n, e, kid, alg: 'RS256', use: 'sig' } };
}

function base64urlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** A compact JWS (RS256) of `claims`. */
export function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const input = `${base64urlJson({ alg: 'RS256', kid: key.jwk.kid, typ: 'JWT' })}.${base64urlJson(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

/**
 * Puts `content` at `file` unless a file is there already, all at once: written (and flushed) to a new file in the
 * same folder, then hard-linked into place. A file system without hard links gets an exclusive write instead.
 */
async function placeExclusively(file: string, content: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temporary, content, { mode: 0o600, flag: 'wx', flush: true });
  try {
    await link(temporary, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    try {
      await writeFile(file, content, { mode: 0o600, flag: 'wx', flush: true });
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
    }
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
