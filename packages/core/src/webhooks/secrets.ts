/** The hooks' `Authorization` headers at rest: AES-256-GCM under a key derived from `[security] SECRET_KEY`. */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const keys = new Map<string, Buffer>();

function keyOf(secretKey: string): Buffer {
  let key = keys.get(secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey, 'repohost', 'webhook authorization header', 32));
    keys.set(secretKey, key);
  }
  return key;
}

/** base64 of nonce (12 bytes), tag (16) and ciphertext; empty text stays empty. */
export function encryptHeader(secretKey: string, text: string): string {
  if (text === '') return '';
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey), nonce);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
}

/** The header in clear; `undefined` when it cannot be decrypted (SECRET_KEY changed). */
export function decryptHeader(secretKey: string, stored: string): string | undefined {
  if (stored === '') return '';
  const raw = Buffer.from(stored, 'base64');
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secretKey), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
