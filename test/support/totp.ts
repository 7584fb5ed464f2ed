/**
 * RFC 6238 time-based one-time codes (HMAC-SHA-1, six digits, 30-second steps), computed here independently of
 * core's two-factor code, so tests judge it rather than repeat it.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The TOTP time step now. */
export function totpStep(at = Date.now()): number {
  return Math.floor(at / 30_000);
}

/** The code for base32 `secret` (padding and case ignored) at `counter` (a time step; the current one by default). */
export function totp(secret: string, counter = totpStep()): string {
  let bits = 0;
  let value = 0;
  const key: number[] = [];
  for (const char of secret.toUpperCase()) {
    if (char === '=') break;
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      key.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', Buffer.from(key)).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
