/**
 * Secrets at rest (webhook `Authorization` headers, TOTP secrets): AES-256-GCM under a key derived from
 * `[security] SECRET_KEY` with HKDF. Each use names its own `purpose`, so one use's ciphertext never decrypts as another's.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const keys = new Map<string, Buffer>();

function keyOf(secretKey: string, purpose: string): Buffer {
  const id = `${purpose}\0${secretKey}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey, 'repohost', purpose, 32));
    keys.set(id, key);
  }
  return key;
}

/** base64 of nonce (12 bytes), tag (16) and ciphertext; empty text stays empty. */
export function encryptSecret(secretKey: string, purpose: string, text: string): string {
  if (text === '') return '';
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey, purpose), nonce);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
}

/** The text in clear; `undefined` when it cannot be decrypted (SECRET_KEY changed, or another purpose's). */
export function decryptSecret(secretKey: string, purpose: string, stored: string): string | undefined {
  if (stored === '') return '';
  const raw = Buffer.from(stored, 'base64');
  if (raw.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secretKey, purpose), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
