import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { OAuth2Application } from './tables.js';

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower-case, unpadded. */
function base32(bytes: Buffer): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** A new client id: a random UUID, as Forgejo issues. */
export function newClientId(): string {
  return randomUUID();
}

/** A new client secret: `gto_` and 256 random bits in base32, Forgejo's shape. */
export function newClientSecret(): string {
  return `gto_${base32(randomBytes(32))}`;
}

/**
 * The stored form of a secret. SHA-256, not a slow password hash: the secret is 256 random bits, so there is
 * nothing to guess and a slow hash would only tax every token request of the provider.
 */
export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** True when `secret` is the application's current secret; compares in constant time. */
export function verifyClientSecret(app: Pick<OAuth2Application, 'client_secret_hash'>, secret: string): boolean {
  if (!app.client_secret_hash) return false;
  const expected = Buffer.from(app.client_secret_hash, 'hex');
  const actual = Buffer.from(hashClientSecret(secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
