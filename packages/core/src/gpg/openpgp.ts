/**
 * Reading OpenPGP public keys as users paste them (armored, one or more keys), with openpgp.js: the ids, the
 * capabilities their flags give, their times and their user ids' addresses; and checking a detached signature of
 * a verification token against them.
 */
import { verifiedSigner } from './signer.js';
import { createMessage, readKeys, readSignature, verify, type Key, type SignaturePacket, type Subkey } from 'openpgp';

/** A key that could not be read or is unusable, with the reason shown to the user. */
export class GpgKeyParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GpgKeyParseError';
  }
}

/** Far above any real public key with its signatures; bounds the work one paste can cause. */
export const MAX_ARMORED_KEY_LENGTH = 1024 * 1024;
/** A detached signature is a few hundred bytes. */
const MAX_ARMORED_SIGNATURE_LENGTH = 64 * 1024;

/** What a key (or subkey) may be used for, from its key flags (RFC 4880 §5.2.3.21). */
export interface GpgCapabilities {
  canSign: boolean;
  canEncryptComms: boolean;
  canEncryptStorage: boolean;
  canCertify: boolean;
}

export interface ParsedGpgSubkey extends GpgCapabilities {
  /** 16 upper-case hex digits. */
  keyId: string;
  /** Base64 of the public-subkey packet. */
  content: string;
  createdUnix: number;
  /** 0: never. */
  expiresUnix: number;
}

export interface ParsedGpgKey extends ParsedGpgSubkey {
  /** The addresses of the unrevoked user ids, as written in the key, without repeats. */
  emails: string[];
  subkeys: ParsedGpgSubkey[];
  /** This key alone, armored: what is kept to check signatures with. */
  armored: string;
  /** The parsed key, for checking a signature at once. */
  key: Key;
}

const FLAG_CERTIFY = 0x01;
const FLAG_SIGN = 0x02;
const FLAG_ENCRYPT_COMMS = 0x04;
const FLAG_ENCRYPT_STORAGE = 0x08;

/** Algorithms by what they can do, for a key whose signature carries no key flags (as Forgejo decides for all). */
const SIGNING_ALGORITHMS: ReadonlySet<string> = new Set(['rsaEncryptSign', 'rsaSign', 'dsa', 'ecdsa', 'eddsaLegacy', 'ed25519', 'ed448']);
const ENCRYPTING_ALGORITHMS: ReadonlySet<string> = new Set(['rsaEncryptSign', 'rsaEncrypt', 'elgamal', 'ecdh', 'x25519', 'x448']);

function capabilities(signature: SignaturePacket | undefined, algorithm: string, primary: boolean): GpgCapabilities {
  const flags = signature?.keyFlags?.[0];
  if (flags !== undefined) {
    return {
      canSign: (flags & FLAG_SIGN) !== 0,
      canEncryptComms: (flags & FLAG_ENCRYPT_COMMS) !== 0,
      canEncryptStorage: (flags & FLAG_ENCRYPT_STORAGE) !== 0,
      canCertify: (flags & FLAG_CERTIFY) !== 0,
    };
  }
  const signs = SIGNING_ALGORITHMS.has(algorithm);
  const encrypts = ENCRYPTING_ALGORITHMS.has(algorithm);
  return { canSign: signs, canEncryptComms: encrypts, canEncryptStorage: encrypts, canCertify: primary && signs };
}

function unix(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** The newest of some signatures (a self-certification or subkey binding may have been renewed). */
function newest(signatures: readonly SignaturePacket[]): SignaturePacket | undefined {
  let best: SignaturePacket | undefined;
  for (const signature of signatures) if (!best || (signature.created?.getTime() ?? 0) > (best.created?.getTime() ?? 0)) best = signature;
  return best;
}

function packetBase64(packet: { write(): Uint8Array }, tag: number): string {
  // One new-format packet: tag, then the body's length (RFC 4880 §4.2.2), then the body.
  const body = packet.write();
  const length = body.length;
  let header: number[];
  if (length < 192) header = [0xc0 | tag, length];
  else if (length < 8384) header = [0xc0 | tag, ((length - 192) >> 8) + 192, (length - 192) & 0xff];
  else header = [0xc0 | tag, 0xff, (length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff];
  return Buffer.concat([Buffer.from(header), Buffer.from(body)]).toString('base64');
}

const PUBLIC_KEY_TAG = 6;
const PUBLIC_SUBKEY_TAG = 14;

function keyIdOf(key: Key | Subkey): string {
  return key.getKeyID().toHex().toUpperCase();
}

async function parseKey(key: Key): Promise<ParsedGpgKey> {
  let selfCertification: SignaturePacket;
  try {
    selfCertification = (await key.getPrimaryUser()).selfCertification;
  } catch {
    throw new GpgKeyParseError(`key ${keyIdOf(key)} has no validly self-signed user id`);
  }
  const created = unix(key.getCreationTime());
  const lifetime = selfCertification.keyNeverExpires ? 0 : (selfCertification.keyExpirationTime ?? 0);
  const expires = lifetime > 0 ? created + lifetime : 0;
  const emails: string[] = [];
  const seen = new Set<string>();
  for (const user of key.users) {
    const email = user.userID?.email?.trim();
    // (A NUL cannot be stored, and is in no address anyway.)
    if (!email || email.includes('\0') || user.revocationSignatures.length > 0 || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    emails.push(email);
  }
  const subkeys: ParsedGpgSubkey[] = key.getSubkeys().map((subkey) => {
    const binding = newest(subkey.bindingSignatures);
    const subCreated = unix(subkey.getCreationTime());
    const subLifetime = binding?.keyNeverExpires ? 0 : (binding?.keyExpirationTime ?? 0);
    return {
      keyId: keyIdOf(subkey),
      content: packetBase64(subkey.keyPacket, PUBLIC_SUBKEY_TAG),
      createdUnix: subCreated,
      // Forgejo's rule: a subkey without a lifetime of its own expires with its primary key.
      expiresUnix: subLifetime > 0 ? subCreated + subLifetime : expires,
      ...capabilities(binding, subkey.getAlgorithmInfo().algorithm, false),
    };
  });
  return {
    keyId: keyIdOf(key),
    content: packetBase64(key.keyPacket, PUBLIC_KEY_TAG),
    createdUnix: created,
    expiresUnix: expires,
    ...capabilities(selfCertification, key.getAlgorithmInfo().algorithm, true),
    emails,
    subkeys,
    armored: key.armor(),
    key,
  };
}

/**
 * Reads one or more armored public keys. Throws GpgKeyParseError for anything else: garbage, a private key, a key
 * without a validly self-signed user id. Two copies of one key in the text are merged.
 */
export async function readArmoredPublicKeys(text: string): Promise<ParsedGpgKey[]> {
  if (text.length > MAX_ARMORED_KEY_LENGTH) throw new GpgKeyParseError('the key is too long');
  if (/-----BEGIN PGP PRIVATE KEY BLOCK-----/.test(text)) throw new GpgKeyParseError('this is a private key: add its public key (gpg --armor --export)');
  if (!text.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----')) throw new GpgKeyParseError('this is not an armored OpenPGP public key (gpg --armor --export)');
  let keys: Key[];
  try {
    keys = await readKeys({ armoredKeys: text });
  } catch (error) {
    throw new GpgKeyParseError(`failed to read the key: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (keys.some((key) => key.isPrivate())) throw new GpgKeyParseError('this is a private key: add its public key (gpg --armor --export)');
  const byId = new Map<string, Key>();
  for (const key of keys) {
    const id = keyIdOf(key);
    const earlier = byId.get(id);
    if (!earlier) byId.set(id, key);
    else {
      try {
        byId.set(id, await earlier.update(key));
      } catch (error) {
        throw new GpgKeyParseError(`failed to merge two copies of key ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  if (byId.size === 0) throw new GpgKeyParseError('no key found');
  return Promise.all([...byId.values()].map(parseKey));
}

/**
 * The key id (primary or subkey) that made `armoredSignature`, a detached signature of `token` by one of `keys`;
 * null when it is not one. The token may have been signed with a trailing newline, as `echo token | gpg` does.
 */
export async function tokenSigner(keys: readonly Key[], token: string, armoredSignature: string): Promise<string | null> {
  if (armoredSignature.length > MAX_ARMORED_SIGNATURE_LENGTH) return null;
  let signature;
  try {
    signature = await readSignature({ armoredSignature });
  } catch {
    return null;
  }
  for (const candidate of [token, `${token}\n`, `${token}\r\n`, `${token}\n\n`]) {
    try {
      const message = await createMessage({ binary: new TextEncoder().encode(candidate) });
      const signer = await verifiedSigner(await verify({ message, signature, verificationKeys: [...keys] }));
      if (signer) return signer;
    } catch {
      // A signature openpgp cannot check at all: not a valid one.
    }
  }
  return null;
}

/** Reads back a key kept by {@link ParsedGpgKey.armored}. */
export async function readStoredKey(armored: string): Promise<Key | undefined> {
  try {
    return (await readKeys({ armoredKeys: armored }))[0];
  } catch {
    return undefined;
  }
}
