/** The hooks' `Authorization` headers at rest: see security/secrets.ts (the purpose string is fixed: stored data uses it). */
import { decryptSecret, encryptSecret, rekeySecret, type RekeyOutcome, type SecretRekey } from '../security/index.js';

const PURPOSE = 'webhook authorization header';

/** base64 of nonce (12 bytes), tag (16) and ciphertext; empty text stays empty. */
export function encryptHeader(secretKey: string, text: string): string {
  return encryptSecret(secretKey, PURPOSE, text);
}

/** The header in clear; `undefined` when it cannot be decrypted (SECRET_KEY changed). */
export function decryptHeader(secretKey: string, stored: string): string | undefined {
  return decryptSecret(secretKey, PURPOSE, stored);
}

/** A stored header moved to a new key (`WebhooksService.reencryptSecrets`). */
export function rekeyHeader(rekey: SecretRekey, stored: string): RekeyOutcome {
  return rekeySecret(rekey, PURPOSE, stored);
}
