/**
 * HTTP signatures as the fediverse uses them (draft-cavage-http-signatures-12, Forgejo's `42wim/httpsig`): the
 * `Signature` header's parameters, the signing string over the named headers, RSA-SHA256 (`rsa-sha256`, and
 * `hs2019` with an RSA key) and RSA-SHA512, and the `Digest` header that binds a body to the signed headers. Every
 * parser here is a single pass over bounded input.
 */
import { createHash, createPublicKey, sign as rsaSign, verify as rsaVerify, type KeyObject } from 'node:crypto';

/** A header longer than this is refused unread (a real one is a few hundred bytes). */
const MAX_SIGNATURE_HEADER = 8192;
/** How far a request's `Date` may lie in the past (Mastodon's twelve hours and an hour of clock skew) or the future. */
const MAX_AGE_SECONDS = 13 * 60 * 60;
const MAX_FUTURE_SECONDS = 60 * 60;

export interface SignatureParams {
  keyId: string;
  algorithm: string;
  /** The signed header names, lower-case, in order. */
  headers: string[];
  signature: Buffer;
  created?: number;
  expires?: number;
}

/** Why a signature was refused (for logs; the client is told only that verification failed). */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

/** A well-formed, recent signature that the key does not verify: the signer's key may have changed. */
export class SignatureMismatchError extends SignatureError {
  constructor() {
    super('signature does not match');
    this.name = 'SignatureMismatchError';
  }
}

/**
 * The parameters of a `Signature: keyId="…",algorithm="…",headers="…",signature="…"` header (or of
 * `Authorization: Signature …`): comma-separated `name="value"` pairs, `created`/`expires` as numbers.
 */
export function parseSignatureHeader(text: string): SignatureParams {
  if (text.length > MAX_SIGNATURE_HEADER) throw new SignatureError('signature header too long');
  const values = new Map<string, string>();
  let i = 0;
  const n = text.length;
  const skipSpace = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  while (i < n) {
    skipSpace();
    const nameStart = i;
    while (i < n && text[i] !== '=' && text[i] !== ',') i++;
    const name = text.slice(nameStart, i).trim().toLowerCase();
    if (text[i] !== '=' || name === '') throw new SignatureError('malformed signature header');
    i++;
    let value: string;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new SignatureError('unterminated value in signature header');
      value = text.slice(i + 1, end);
      i = end + 1;
    } else {
      const end = text.indexOf(',', i);
      value = text.slice(i, end < 0 ? n : end).trim();
      i = end < 0 ? n : end;
    }
    if (values.has(name)) throw new SignatureError(`repeated ${name} in signature header`);
    values.set(name, value);
    skipSpace();
    if (i < n) {
      if (text[i] !== ',') throw new SignatureError('malformed signature header');
      i++;
    }
  }
  const keyId = values.get('keyid');
  const signature = values.get('signature');
  if (!keyId || !signature) throw new SignatureError('signature header lacks keyId or signature');
  const headers = (values.get('headers') ?? '(created)').split(' ').filter((h) => h !== '').map((h) => h.toLowerCase());
  const number = (name: string) => {
    const raw = values.get(name);
    if (raw === undefined) return undefined;
    if (!/^\d{1,12}$/.test(raw)) throw new SignatureError(`malformed ${name}`);
    return Number(raw);
  };
  return { keyId, algorithm: (values.get('algorithm') ?? 'hs2019').toLowerCase(), headers, signature: Buffer.from(signature, 'base64'), created: number('created'), expires: number('expires') };
}

/** What a signing string is built from: the method, the path with its query as sent, and a header reader. */
export interface SignedRequest {
  method: string;
  /** The request target: path and query, as on the request line. */
  target: string;
  header(name: string): string | null | undefined;
}

/** The draft's signing string: one `name: value` line per signed header, `(request-target)` first as usual. */
export function signingString(request: SignedRequest, params: Pick<SignatureParams, 'headers' | 'created' | 'expires'>): string {
  const lines: string[] = [];
  for (const name of params.headers) {
    if (name === '(request-target)') lines.push(`(request-target): ${request.method.toLowerCase()} ${request.target}`);
    else if (name === '(created)') {
      if (params.created === undefined) throw new SignatureError('(created) is signed but absent');
      lines.push(`(created): ${params.created}`);
    } else if (name === '(expires)') {
      if (params.expires === undefined) throw new SignatureError('(expires) is signed but absent');
      lines.push(`(expires): ${params.expires}`);
    } else {
      const value = request.header(name);
      if (value === null || value === undefined) throw new SignatureError(`signed header ${name} is absent`);
      lines.push(`${name}: ${value.trim()}`);
    }
  }
  return lines.join('\n');
}

/** The hash an algorithm name stands for; `hs2019` takes the key's own (SHA-256 for RSA, as Forgejo and Mastodon do). */
function hashOf(algorithm: string): 'sha256' | 'sha512' {
  switch (algorithm) {
    case 'rsa-sha256':
    case 'hs2019':
      return 'sha256';
    case 'rsa-sha512':
      return 'sha512';
    default:
      throw new SignatureError(`unsupported signature algorithm ${algorithm}`);
  }
}

/** A PEM public key as a key object, or a SignatureError for anything else. */
export function publicKeyOf(pem: string): KeyObject {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'rsa') throw new SignatureError('only RSA keys are supported');
    return key;
  } catch (error) {
    throw error instanceof SignatureError ? error : new SignatureError('malformed public key');
  }
}

export interface VerifyOptions {
  /** Headers the signature must cover besides `(request-target)` (`digest` for a request with a body). */
  required?: readonly string[];
  nowUnix: number;
}

/**
 * Checks `params.signature` over the request with `publicKeyPem`: the algorithm is one we know, `(request-target)`
 * and the required headers are signed, the request is recent (its `Date`, or `(created)`/`(expires)`), and the
 * RSA signature holds. Throws SignatureError otherwise.
 */
export function verifySignature(request: SignedRequest, params: SignatureParams, publicKeyPem: string, options: VerifyOptions): void {
  const hash = hashOf(params.algorithm);
  const signed = new Set(params.headers);
  for (const name of ['(request-target)', ...(options.required ?? [])]) {
    if (!signed.has(name)) throw new SignatureError(`${name} is not signed`);
  }
  if (signed.has('date')) {
    const date = Date.parse(request.header('date') ?? '');
    if (Number.isNaN(date)) throw new SignatureError('malformed Date');
    checkTime(Math.floor(date / 1000), options.nowUnix);
  } else if (params.created !== undefined && signed.has('(created)')) {
    checkTime(params.created, options.nowUnix);
  } else throw new SignatureError('neither Date nor (created) is signed');
  if (params.expires !== undefined && params.expires < options.nowUnix) throw new SignatureError('signature expired');
  const data = Buffer.from(signingString(request, params));
  if (!rsaVerify(hash, data, publicKeyOf(publicKeyPem), params.signature)) throw new SignatureMismatchError();
}

function checkTime(when: number, now: number): void {
  if (when < now - MAX_AGE_SECONDS) throw new SignatureError('request too old');
  if (when > now + MAX_FUTURE_SECONDS) throw new SignatureError('request dated in the future');
}

/**
 * Checks a `Digest` header (`SHA-256=<base64>`, several comma-separated allowed) against the body: at least one
 * known algorithm must be present and every known one must match.
 */
export function verifyDigest(header: string | null | undefined, body: Buffer): void {
  if (!header) throw new SignatureError('Digest is absent');
  let checked = 0;
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    const value = part.slice(at + 1).trim();
    const hash = name === 'sha-256' ? 'sha256' : name === 'sha-512' ? 'sha512' : undefined;
    if (!hash) continue;
    if (createHash(hash).update(body).digest('base64') !== value) throw new SignatureError('Digest does not match the body');
    checked++;
  }
  if (checked === 0) throw new SignatureError('Digest names no supported algorithm');
}

/** `SHA-256=<base64>` of a body, for an outgoing request. */
export function digestOf(body: Buffer): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/**
 * The headers of an outgoing signed request: `Date`, `Host`, and `Digest` for a body, signed with `rsa-sha256` over
 * `(request-target) host date [digest]` (Forgejo's `GET_HEADERS` and `POST_HEADERS`).
 */
export function signRequest(input: { method: string; url: URL; body?: Buffer; keyId: string; privateKeyPem: string; now?: Date }): Record<string, string> {
  const headers: Record<string, string> = { date: (input.now ?? new Date()).toUTCString(), host: input.url.host };
  const names = ['(request-target)', 'host', 'date'];
  if (input.body) {
    headers.digest = digestOf(input.body);
    names.push('digest');
  }
  const request: SignedRequest = { method: input.method, target: input.url.pathname + input.url.search, header: (name) => headers[name] };
  const signature = rsaSign('sha256', Buffer.from(signingString(request, { headers: names })), input.privateKeyPem).toString('base64');
  headers.signature = `keyId="${input.keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`;
  return headers;
}
