/**
 * Checking a commit's OpenPGP signature with openpgp.js (loaded on first use by `verification.ts`): the issuer a
 * signature names, and whether a registered key made it.
 */
import { createMessage, readKey, readSignature, verify, type Signature } from 'openpgp';
import { verifiedSigner } from '../gpg/index.js';

/** A commit signature is a few hundred bytes; more is not one. */
const MAX_ARMORED_SIGNATURE_LENGTH = 64 * 1024;

/** The parsed signature and the key id it names (16 upper-case hex digits, '' if none); undefined when unreadable. */
export async function readCommitSignature(armored: string): Promise<{ signature: Signature; issuer: string } | undefined> {
  if (armored.length > MAX_ARMORED_SIGNATURE_LENGTH) return undefined;
  try {
    const signature = await readSignature({ armoredSignature: armored });
    const packet = signature.packets[0];
    if (!packet) return undefined;
    const fingerprint = packet.issuerFingerprint ? Buffer.from(packet.issuerFingerprint).toString('hex').toUpperCase() : '';
    // A wildcard (all-zero) issuer names no key.
    let issuer = packet.issuerKeyID ? packet.issuerKeyID.toHex().toUpperCase() : '';
    if (/^0+$/.test(issuer)) issuer = '';
    // A v4 fingerprint ends with the key id; a v6 one starts with it.
    if (!issuer && fingerprint) issuer = fingerprint.length === 40 ? fingerprint.slice(-16) : fingerprint.slice(0, 16);
    return { signature, issuer };
  } catch {
    return undefined;
  }
}

/**
 * The id (16 upper-case hex digits) of the key or subkey of `armoredKey` that made `signature` over `payload`;
 * undefined when none did (or the key cannot be read).
 */
export async function signingKeyId(armoredKey: string, payload: Uint8Array, signature: Signature): Promise<string | undefined> {
  try {
    const key = await readKey({ armoredKey });
    const message = await createMessage({ binary: payload });
    // The signature is judged at its own creation time: a key that expired since still vouches for older commits.
    const created = signature.packets[0]?.created ?? undefined;
    return await verifiedSigner(await verify({ message, signature, verificationKeys: [key], date: created ?? undefined, format: 'binary' }));
  } catch {
    // Unreadable key or a signature openpgp cannot check: not verified.
  }
  return undefined;
}
