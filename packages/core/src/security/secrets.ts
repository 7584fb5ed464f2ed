/**
 * Secrets at rest (webhook `Authorization` headers, TOTP secrets, …): AES-256-GCM under a key derived from
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

/** A move of stored secrets from one `[security] SECRET_KEY` to another (`host.secretsAtRest.reencrypt`). */
export interface SecretRekey {
  readonly oldKey: string;
  readonly newKey: string;
}

/**
 * One stored value moved to the new key: `moved` (decrypted under the old key), `current` (already under the new
 * one: a second run, or written since the key changed) or `failed` (under neither; left as it is).
 */
export type RekeyOutcome = { status: 'moved'; stored: string } | { status: 'current' } | { status: 'failed' };

export function rekeySecret(rekey: SecretRekey, purpose: string, stored: string): RekeyOutcome {
  if (stored === '') return { status: 'current' };
  const text = decryptSecret(rekey.oldKey, purpose, stored);
  if (text !== undefined) return { status: 'moved', stored: encryptSecret(rekey.newKey, purpose, text) };
  return decryptSecret(rekey.newKey, purpose, stored) !== undefined ? { status: 'current' } : { status: 'failed' };
}

/** What re-encrypting one domain's values did; `failed` names the values (`webhook 12`) that decrypted under neither key. */
export interface RekeyCounts {
  moved: number;
  current: number;
  failed: string[];
}

/** Counts to add outcomes to. */
export function emptyRekeyCounts(): RekeyCounts {
  return { moved: 0, current: 0, failed: [] };
}

/** Adds one value's outcome to `counts`; the new ciphertext when it must be written. */
export function countRekey(counts: RekeyCounts, outcome: RekeyOutcome, name: string): string | undefined {
  if (outcome.status === 'moved') {
    counts.moved++;
    return outcome.stored;
  }
  if (outcome.status === 'current') counts.current++;
  else counts.failed.push(name);
  return undefined;
}

const REKEY_BATCH = 500;

/** Walks a table's rows by id in batches (`read(afterId, limit)` gives the next ones, by id), handing each to `visit`. */
export async function forEachRowInBatches<Row extends { id: number }>(
  read: (afterId: number, limit: number) => Promise<Row[]>,
  visit: (row: Row) => Promise<void>,
): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await read(after, REKEY_BATCH);
    for (const row of rows) await visit(row);
    if (rows.length < REKEY_BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
