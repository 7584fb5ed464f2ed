/**
 * Reading SSH public keys as users paste them: an OpenSSH `authorized_keys` line (`type base64 [comment]`), an
 * RFC 4716 block (`---- BEGIN SSH2 PUBLIC KEY ----`) or a PEM public key. The key blob is decoded and checked field
 * by field, so what is stored is a key an SSH server can use, in one normal form.
 */
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';

/** A key that could not be read, with the reason shown to the user. */
export class KeyParseError extends Error {
  constructor(
    message: string,
    /** True when the key is well-formed but of an algorithm we cannot check (Forgejo's "Unable to verify"). */
    readonly unverifiable = false,
  ) {
    super(message);
    this.name = 'KeyParseError';
  }
}

/** The algorithm families sizes are checked by, named as Forgejo's `[ssh.minimum_key_sizes]` names them. */
export type KeyFamily = 'ed25519' | 'ed25519-sk' | 'ecdsa' | 'ecdsa-sk' | 'rsa' | 'dsa';

export interface ParsedPublicKey {
  /** The wire name, e.g. `ssh-ed25519`. */
  type: string;
  /** The key blob (RFC 4253 encoding). */
  blob: Buffer;
  family: KeyFamily;
  /** Key size in bits (RSA/DSA: the modulus; elliptic curves: the curve's size). */
  bits: number;
  /** `<type> <base64 blob>`. */
  content: string;
  /** `SHA256:<unpadded base64>`, as OpenSSH prints it. */
  fingerprint: string;
}

/** Forgejo's default `[ssh.minimum_key_sizes]`: a family absent here (DSA) is refused outright. */
export const MINIMUM_KEY_SIZES: ReadonlyMap<KeyFamily, number> = new Map<KeyFamily, number>([
  ['ed25519', 256],
  ['ed25519-sk', 256],
  ['ecdsa', 256],
  ['ecdsa-sk', 256],
  ['rsa', 3071],
]);

const SSH2_BEGIN = '---- BEGIN SSH2 PUBLIC KEY ----';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Far above any real public key (an RSA-16384 line is under 3 KiB); bounds the work a pasted blob can cause. */
const MAX_KEY_TEXT = 16 * 1024;

/** The curves OpenSSH names, with the bytes of an uncompressed point on each and its JWK name. */
const CURVES: ReadonlyMap<string, { bits: number; pointBytes: number; jwk: string }> = new Map([
  ['nistp256', { bits: 256, pointBytes: 65, jwk: 'P-256' }],
  ['nistp384', { bits: 384, pointBytes: 97, jwk: 'P-384' }],
  ['nistp521', { bits: 521, pointBytes: 133, jwk: 'P-521' }],
]);

/** Reads the length-prefixed fields of a key blob. */
class BlobReader {
  private offset = 0;

  constructor(private readonly data: Buffer) {}

  bytes(): Buffer {
    if (this.offset + 4 > this.data.length) throw new KeyParseError('invalid key format: truncated');
    const length = this.data.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (length > this.data.length - start) throw new KeyParseError('invalid key format: truncated');
    this.offset = start + length;
    return this.data.subarray(start, start + length);
  }

  text(): string {
    return this.bytes().toString('latin1');
  }

  /** A non-negative multiple-precision integer, without the sign byte; refuses negative values. */
  mpint(): Buffer {
    const value = this.bytes();
    if (value.length > 0 && (value[0]! & 0x80) !== 0) throw new KeyParseError('invalid key format: negative integer');
    let start = 0;
    while (start < value.length && value[start] === 0) start++;
    return value.subarray(start);
  }

  end(): void {
    if (this.offset !== this.data.length) throw new KeyParseError('invalid key format: trailing data');
  }
}

function bitLength(magnitude: Buffer): number {
  if (magnitude.length === 0) return 0;
  return (magnitude.length - 1) * 8 + (32 - Math.clz32(magnitude[0]!));
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** Node refuses keys that are not valid points or numbers: the same check Go's ssh.ParsePublicKey makes. */
function assertUsable(jwk: JsonWebKey): void {
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new KeyParseError('invalid key format: not a valid public key');
  }
}

function ecdsaPoint(reader: BlobReader, type: string, curveName: string): number {
  const curve = CURVES.get(curveName);
  if (!curve || reader.text() !== curveName) throw new KeyParseError(`invalid key format: curve does not match ${type}`);
  const point = reader.bytes();
  if (point.length !== curve.pointBytes || point[0] !== 0x04) throw new KeyParseError('invalid key format: bad curve point');
  const half = (curve.pointBytes - 1) / 2;
  assertUsable({ kty: 'EC', crv: curve.jwk, x: base64url(point.subarray(1, 1 + half)), y: base64url(point.subarray(1 + half)) });
  return curve.bits;
}

/** Decodes a key blob: its family and size, or a KeyParseError. */
function readBlob(type: string, blob: Buffer): { family: KeyFamily; bits: number } {
  const reader = new BlobReader(blob);
  if (reader.text() !== type) throw new KeyParseError(`key type and content do not match: ${type}`);
  let result: { family: KeyFamily; bits: number };
  if (type === 'ssh-ed25519' || type === 'sk-ssh-ed25519@openssh.com') {
    if (reader.bytes().length !== 32) throw new KeyParseError('invalid key format: bad ed25519 key');
    if (type !== 'ssh-ed25519') reader.text(); // the security key's application
    result = { family: type === 'ssh-ed25519' ? 'ed25519' : 'ed25519-sk', bits: 256 };
  } else if (type === 'ssh-rsa') {
    const e = reader.mpint();
    const n = reader.mpint();
    assertUsable({ kty: 'RSA', e: base64url(e), n: base64url(n) });
    result = { family: 'rsa', bits: bitLength(n) };
  } else if (type.startsWith('ecdsa-sha2-')) {
    result = { family: 'ecdsa', bits: ecdsaPoint(reader, type, type.slice('ecdsa-sha2-'.length)) };
  } else if (type === 'sk-ecdsa-sha2-nistp256@openssh.com') {
    result = { family: 'ecdsa-sk', bits: ecdsaPoint(reader, type, 'nistp256') };
    reader.text();
  } else if (type === 'ssh-dss') {
    const p = reader.mpint();
    reader.mpint();
    reader.mpint();
    reader.mpint();
    result = { family: 'dsa', bits: bitLength(p) };
  } else {
    throw new KeyParseError(`unknown key algorithm: ${type}`, true);
  }
  reader.end();
  return result;
}

function decodeBase64(text: string): Buffer {
  if (!BASE64.test(text) || text.length % 4 === 1) throw new KeyParseError('invalid key format: not base64');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length < 4) throw new KeyParseError('invalid key format: too short');
  return bytes;
}

/** The key type a blob names in its first field. */
function typeOf(blob: Buffer): string {
  const length = blob.readUInt32BE(0);
  if (length > blob.length - 4 || length === 0 || length > 64) throw new KeyParseError('invalid key format: bad key type');
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** The body of an RFC 4716 block: header lines (with `:`, and their continuations) and the markers are skipped. */
function ssh2Body(text: string): string {
  let body = '';
  let continued = false;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (continued || line.includes(':') || line.startsWith('----')) {
      continued = line.endsWith('\\');
      continue;
    }
    body += line;
  }
  return body;
}

/** A PEM public key (SPKI or PKCS#1 RSA) as an SSH key blob. */
function pemToBlob(text: string): Buffer {
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text)) throw new KeyParseError('the key is a private key: paste the public key');
  let jwk: JsonWebKey;
  try {
    jwk = createPublicKey({ key: text, format: 'pem' }).export({ format: 'jwk' });
  } catch {
    throw new KeyParseError('failed to parse PEM block containing the public key');
  }
  const field = (name: string) => Buffer.from(name, 'latin1');
  const lengthPrefixed = (value: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(value.length);
    return Buffer.concat([length, value]);
  };
  const mpint = (b64: string) => {
    let value = Buffer.from(b64, 'base64url');
    if (value.length > 0 && (value[0]! & 0x80) !== 0) value = Buffer.concat([Buffer.from([0]), value]);
    return lengthPrefixed(value);
  };
  if (jwk.kty === 'RSA' && jwk.n && jwk.e) return Buffer.concat([lengthPrefixed(field('ssh-rsa')), mpint(jwk.e), mpint(jwk.n)]);
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && jwk.x) {
    return Buffer.concat([lengthPrefixed(field('ssh-ed25519')), lengthPrefixed(Buffer.from(jwk.x, 'base64url'))]);
  }
  if (jwk.kty === 'EC' && jwk.x && jwk.y) {
    const curve = [...CURVES].find(([, c]) => c.jwk === jwk.crv);
    if (curve) {
      const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
      return Buffer.concat([lengthPrefixed(field(`ecdsa-sha2-${curve[0]}`)), lengthPrefixed(field(curve[0])), lengthPrefixed(point)]);
    }
  }
  throw new KeyParseError('unable to convert to ssh public key', true);
}

/** What an OpenSSH key type name looks like (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `sk-…@openssh.com`). */
const KEY_TYPE_NAME = /^(?:ssh-[a-z0-9-]+|ecdsa-sha2-[a-z0-9]+|sk-[a-z0-9-]+@openssh\.com|[a-z0-9-]+-cert-v01@openssh\.com)$/;

/**
 * An authorized_keys line may start with options (`command="…"`, `no-pty`, `from=…`) before the key type. Such a
 * key would mean something else to sshd than what it grants here, so it is refused with a reason that says so.
 */
function refuseOptions(fields: readonly string[]): void {
  if (fields.length < 3 || KEY_TYPE_NAME.test(fields[0]!)) return;
  const typeAt = fields.findIndex((field, i) => i > 0 && KEY_TYPE_NAME.test(field));
  if (typeAt > 0 && typeAt + 1 < fields.length) throw new KeyParseError('authorized_keys options are not allowed: add the key alone (type, key and comment)');
}

/** `SHA256:<unpadded base64>` of a key blob. */
export function fingerprintOf(blob: Buffer): string {
  // `=` only ever pads the end of base64: removing every one is what `/=+$/` did, without its backtracking.
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=/g, '')}`;
}

/**
 * Parses a public key as pasted (OpenSSH line, RFC 4716 block or PEM) into its normal form. Throws KeyParseError
 * for anything that is not one well-formed public key. Sizes are not checked here: see {@link checkKeySize}.
 */
export function parsePublicKey(input: string): ParsedPublicKey {
  if (input.length > MAX_KEY_TEXT) throw new KeyParseError('the key is too long');
  const text = input.trim().replace(/\r\n?/g, '\n');
  if (text === '') throw new KeyParseError('empty key');
  let blob: Buffer;
  let declaredType: string | undefined;
  if (text.startsWith(SSH2_BEGIN)) {
    blob = decodeBase64(ssh2Body(text));
  } else if (text.includes('-----BEGIN')) {
    blob = pemToBlob(text);
  } else {
    // One key per line; Forgejo reads a key wrapped over lines by joining them.
    const fields = text.replace(/\n/g, '').split(/[ \t]+/);
    refuseOptions(fields);
    if (fields.length === 1) blob = decodeBase64(fields[0]!);
    else {
      declaredType = fields[0]!;
      blob = decodeBase64(fields[1]!);
    }
  }
  const type = typeOf(blob);
  if (declaredType !== undefined && declaredType !== type) throw new KeyParseError(`key type and content do not match: ${declaredType} - ${type}`);
  const { family, bits } = readBlob(type, blob);
  return { type, blob, family, bits, content: `${type} ${blob.toString('base64')}`, fingerprint: fingerprintOf(blob) };
}

/** Refuses a key below Forgejo's minimum size for its family, or of a family not allowed at all (DSA). */
export function checkKeySize(key: Pick<ParsedPublicKey, 'family' | 'bits'>): void {
  const minimum = MINIMUM_KEY_SIZES.get(key.family);
  if (minimum === undefined) throw new KeyParseError(`key type is not allowed: ${key.family}`);
  if (key.bits < minimum) throw new KeyParseError(`key length is not enough: got ${key.bits}, needs ${minimum}`);
}
