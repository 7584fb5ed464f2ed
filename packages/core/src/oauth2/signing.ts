import { createHash, createPrivateKey, createPublicKey, generateKeyPair, sign, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
 * created when absent. The file is written exclusively, so two processes starting together end up with one key.
 */
export async function loadOrCreateSigningKey(file: string): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const { privateKey } = await generateRsa('rsa', { modulusLength: MODULUS_BITS });
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      await writeFile(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
    }
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
