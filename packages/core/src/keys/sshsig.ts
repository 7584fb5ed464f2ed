/**
 * OpenSSH signatures (`ssh-keygen -Y sign`, git's `gpg.format=ssh`), checked with node:crypto. The format is
 * OpenSSH's PROTOCOL.sshsig: an armored blob naming the signer's public key, a namespace ("git" for commits and
 * tags) and a hash, over which the key signed `"SSHSIG" ‖ namespace ‖ reserved ‖ hash name ‖ H(message)`.
 *
 * Key types checked: ssh-ed25519, ssh-rsa (rsa-sha2-256/512 signatures), ecdsa-sha2-nistp256/384/521 and the
 * security-key types sk-ssh-ed25519@openssh.com and sk-ecdsa-sha2-nistp256@openssh.com.
 */
import { createHash, createPublicKey, verify, constants, type KeyObject } from 'node:crypto';

const BEGIN = '-----BEGIN SSH SIGNATURE-----';
const END = '-----END SSH SIGNATURE-----';
const MAGIC = Buffer.from('SSHSIG', 'latin1');
/** Far above any real signature (an RSA-16384 one is under 5 KiB armored); bounds the work a forged one causes. */
const MAX_ARMORED = 64 * 1024;
const HASHES: ReadonlyMap<string, 'sha256' | 'sha512'> = new Map([
  ['sha256', 'sha256'],
  ['sha512', 'sha512'],
]);
const CURVES: ReadonlyMap<string, { jwk: string; hash: string; bytes: number }> = new Map([
  ['nistp256', { jwk: 'P-256', hash: 'sha256', bytes: 32 }],
  ['nistp384', { jwk: 'P-384', hash: 'sha384', bytes: 48 }],
  ['nistp521', { jwk: 'P-521', hash: 'sha512', bytes: 66 }],
]);

/** A parsed SSH signature. */
export interface SshSignature {
  /** The signer's public key blob (RFC 4253 encoding). */
  publicKey: Buffer;
  namespace: string;
  hashAlgorithm: 'sha256' | 'sha512';
  /** The signature's algorithm name, e.g. `ssh-ed25519` or `rsa-sha2-512`. */
  signatureType: string;
  /** The signature in its SSH encoding (algorithm name, then the algorithm's fields). */
  signature: Buffer;
  /** The reserved field, signed as it is. */
  reserved: Buffer;
}

/** Reads the length-prefixed fields of SSH wire data; an overrun marks the reader failed, never throws. */
class WireReader {
  private offset = 0;
  failed = false;

  constructor(private readonly data: Buffer) {}

  fixed(length: number): Buffer {
    if (this.failed || this.offset + length > this.data.length) {
      this.failed = true;
      return Buffer.alloc(0);
    }
    const value = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  uint32(): number {
    const bytes = this.fixed(4);
    return bytes.length === 4 ? bytes.readUInt32BE(0) : 0;
  }

  bytes(): Buffer {
    return this.fixed(this.uint32());
  }

  text(): string {
    return this.bytes().toString('latin1');
  }

  /** A non-negative mpint's magnitude, without leading zero bytes. */
  mpint(): Buffer {
    const value = this.bytes();
    let start = 0;
    while (start < value.length && value[start] === 0) start++;
    return value.subarray(start);
  }

  get done(): boolean {
    return !this.failed && this.offset === this.data.length;
  }
}

function lengthPrefixed(value: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(value.length);
  return Buffer.concat([length, value]);
}

/** The armored signature's fields, or undefined when it is not one well-formed version-1 SSH signature. */
export function parseSshSignature(armored: string): SshSignature | undefined {
  if (armored.length > MAX_ARMORED) return undefined;
  const text = armored.replace(/\r\n?/g, '\n').trim();
  if (!text.startsWith(BEGIN) || !text.endsWith(END)) return undefined;
  const body = text.slice(BEGIN.length, text.length - END.length).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) return undefined;
  const reader = new WireReader(Buffer.from(body, 'base64'));
  if (!reader.fixed(MAGIC.length).equals(MAGIC) || reader.uint32() !== 1) return undefined;
  const publicKey = reader.bytes();
  const namespace = reader.text();
  const reserved = reader.bytes();
  const hashAlgorithm = HASHES.get(reader.text());
  const signature = reader.bytes();
  if (!reader.done || !hashAlgorithm) return undefined;
  const signatureType = new WireReader(signature).text();
  return { publicKey, namespace, hashAlgorithm, signatureType, signature, reserved };
}

/** ECDSA's `mpint r, mpint s` as node's IEEE P1363 form: r ‖ s, each left-padded to the curve's size. */
function ecdsaP1363(encoded: Buffer, size: number): Buffer | undefined {
  const parts = new WireReader(encoded);
  const r = parts.mpint();
  const s = parts.mpint();
  if (!parts.done || r.length > size || s.length > size) return undefined;
  const rs = Buffer.alloc(2 * size);
  r.copy(rs, size - r.length);
  s.copy(rs, 2 * size - s.length);
  return rs;
}

/**
 * What a security key (FIDO) signs instead of the data: SHA-256 of the application, the flags and counter it
 * reports with the signature, and SHA-256 of the data (OpenSSH's PROTOCOL.u2f).
 */
function securityKeyData(application: string, flags: Buffer, counter: Buffer, data: Buffer): Buffer {
  const sha256 = (value: Buffer | string) => createHash('sha256').update(value).digest();
  return Buffer.concat([sha256(application), flags, counter, sha256(data)]);
}

function ed25519Key(x: Buffer): KeyObject | undefined {
  return x.length === 32 ? createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: x.toString('base64url') }, format: 'jwk' }) : undefined;
}

function ecdsaKey(curve: { jwk: string; bytes: number }, point: Buffer): KeyObject | undefined {
  if (point.length !== 1 + 2 * curve.bytes || point[0] !== 4) return undefined;
  const x = point.subarray(1, 1 + curve.bytes).toString('base64url');
  const y = point.subarray(1 + curve.bytes).toString('base64url');
  return createPublicKey({ key: { kty: 'EC', crv: curve.jwk, x, y }, format: 'jwk' });
}

/** True when `signature` (SSH encoding) is the key `keyBlob`'s signature of `data`; false for types not checked. */
function checkSignature(keyBlob: Buffer, data: Buffer, signature: Buffer): boolean {
  const keyFields = new WireReader(keyBlob);
  const type = keyFields.text();
  const sig = new WireReader(signature);
  const sigType = sig.text();
  if (type === 'ssh-ed25519') {
    const key = ed25519Key(keyFields.bytes());
    const raw = sig.bytes();
    return !!key && keyFields.done && sig.done && sigType === type && raw.length === 64 && verify(null, data, key, raw);
  }
  if (type === 'ssh-rsa') {
    const e = keyFields.mpint();
    const n = keyFields.mpint();
    const raw = sig.bytes();
    // SHA-1 (`ssh-rsa`) signatures are not accepted in SSH signatures, as OpenSSH refuses them there.
    const hash = sigType === 'rsa-sha2-256' ? 'sha256' : sigType === 'rsa-sha2-512' ? 'sha512' : undefined;
    if (!keyFields.done || !sig.done || !hash) return false;
    const key = createPublicKey({ key: { kty: 'RSA', e: e.toString('base64url'), n: n.toString('base64url') }, format: 'jwk' });
    return verify(hash, data, { key, padding: constants.RSA_PKCS1_PADDING }, raw);
  }
  if (type.startsWith('ecdsa-sha2-')) {
    const curveName = keyFields.text();
    const curve = CURVES.get(curveName);
    const key = curve && ecdsaKey(curve, keyFields.bytes());
    const rs = curve && ecdsaP1363(sig.bytes(), curve.bytes);
    if (!key || !rs || !keyFields.done || !sig.done || type !== `ecdsa-sha2-${curveName}` || sigType !== type) return false;
    return verify(curve.hash, data, { key, dsaEncoding: 'ieee-p1363' }, rs);
  }
  if (type === 'sk-ssh-ed25519@openssh.com') {
    const key = ed25519Key(keyFields.bytes());
    const application = keyFields.text();
    const raw = sig.bytes();
    const flags = sig.fixed(1);
    const counter = sig.fixed(4);
    if (!key || !keyFields.done || !sig.done || sigType !== type || raw.length !== 64) return false;
    return verify(null, securityKeyData(application, flags, counter, data), key, raw);
  }
  if (type === 'sk-ecdsa-sha2-nistp256@openssh.com') {
    const curve = CURVES.get('nistp256')!;
    const curveName = keyFields.text();
    const key = ecdsaKey(curve, keyFields.bytes());
    const application = keyFields.text();
    const rs = ecdsaP1363(sig.bytes(), curve.bytes);
    const flags = sig.fixed(1);
    const counter = sig.fixed(4);
    if (!key || !rs || curveName !== 'nistp256' || !keyFields.done || !sig.done || sigType !== type) return false;
    return verify('sha256', securityKeyData(application, flags, counter, data), { key, dsaEncoding: 'ieee-p1363' }, rs);
  }
  return false;
}

/**
 * True when `armored` is a valid SSH signature of `message` in `namespace`, made by the key `keyBlob` (the key the
 * signature names must be that key).
 */
export function verifySshSignature(message: Buffer, armored: string, keyBlob: Buffer, namespace: string): boolean {
  const parsed = parseSshSignature(armored);
  if (!parsed || parsed.namespace !== namespace || !parsed.publicKey.equals(keyBlob)) return false;
  const signed = Buffer.concat([
    MAGIC,
    lengthPrefixed(Buffer.from(parsed.namespace, 'latin1')),
    lengthPrefixed(parsed.reserved),
    lengthPrefixed(Buffer.from(parsed.hashAlgorithm, 'latin1')),
    lengthPrefixed(createHash(parsed.hashAlgorithm).update(message).digest()),
  ]);
  try {
    return checkSignature(keyBlob, signed, parsed.signature);
  } catch {
    return false; // not a usable key (a point off the curve, a malformed number)
  }
}

/** The key blob of a stored key's content (`<type> <base64>`), or undefined. */
export function keyBlobOf(content: string): Buffer | undefined {
  const base64 = content.split(' ')[1];
  return base64 && /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? Buffer.from(base64, 'base64') : undefined;
}
