/**
 * Remote addresses that RepoHost itself contacts: migrations, pull mirrors and push mirrors. One place parses what a
 * caller typed (Forgejo's `ParseRemoteAddr` + `IsMigrateURLAllowed`), checks it against `[migrations]`
 * (ALLOWED_DOMAINS, BLOCKED_DOMAINS, ALLOW_LOCALNETWORKS) and `[security] IMPORT_LOCAL_PATHS`, pins the checked
 * address so a name cannot resolve elsewhere later, follows HTTP redirects only to places that pass the same check,
 * keeps credentials out of URLs, logs and error texts, and stores them encrypted.
 */
import { lookup } from 'node:dns/promises';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { isSiteAdmin, type Actor } from '../users/index.js';
import type { Settings } from '../config/index.js';
import { ValidationError } from '../errors.js';
import { classifyAddress } from '../net/index.js';
import { decryptSecret, encryptSecret, rekeySecret, type RekeyOutcome, type SecretRekey } from '../security/index.js';
import { hostMatcher } from './allowed-hosts.js';
import { trimEnd } from '../text.js';

/** Forgejo's messages for an address it refuses (`handleRemoteAddrError`), all 422. */
export const REMOTE_ADDRESS_MESSAGES = {
  url: 'Invalid URL',
  protocol: 'Invalid protocol: only http, https and git addresses can be migrated',
  localDenied: 'You are not allowed to import local repositories.',
  invalidPath: 'Invalid local path, it does not exist or not a directory.',
  blocked: 'You can not import from disallowed hosts.',
  // git:// goes through a proxy bound to the checked address; without one (no Node.js to run it) it is refused.
  unpinnable: 'You can not import from git:// addresses on this server: use an http or https address.',
  // Forgejo lets git find out (and answers "Migration failed: … Could not resolve host"); said at once here.
  unresolved: 'Migration failed: could not resolve the host of the remote address.',
} as const;

/** A refused remote address: a 422 whose message is Forgejo's text (no field prefix, as Forgejo answers). */
export class RemoteAddressError extends ValidationError {
  constructor(readonly problem: keyof typeof REMOTE_ADDRESS_MESSAGES) {
    super('', REMOTE_ADDRESS_MESSAGES[problem]);
    this.name = 'RemoteAddressError';
  }
}

export interface RemoteCredentials {
  username: string;
  password: string;
}

/** What a caller typed: the address and, apart from it, optional credentials (which win over ones in the URL). */
export interface RemoteAddressInput {
  address: string;
  username?: string;
  password?: string;
}

/** A remote that passed the checks. Credentials are never part of `url`. */
export interface CheckedRemote {
  /** The address without credentials (`http(s)://` or `git://`), or `file:///abs/path` for an allowed local path. */
  url: string;
  /** `url` as shown to users and stored as `original_url`: credentials removed. */
  sanitized: string;
  credentials?: RemoteCredentials;
  /** The address the host name resolved to and was checked as; git and HTTP connect there and nowhere else. */
  pinned?: { host: string; port: number; address: string; family: 4 | 6 };
  local: boolean;
}

/** The parts of settings the checks read. */
export type RemoteSettings = Pick<Settings, 'migrations' | 'security'>;

const REMOTE_PROTOCOLS = new Set(['http:', 'https:', 'git:']);

/**
 * Parses and checks a remote address for `actor`. Throws RemoteAddressError (422) with Forgejo's message when the
 * address is malformed, of another protocol, a local path the actor may not import, or a host the settings refuse.
 * `acceptUnresolved`: a host name that does not resolve now passes when its name does (no `pinned` then); for
 * addresses stored to be used later, each use checking again (push mirrors).
 */
export async function checkRemoteAddress(
  settings: RemoteSettings,
  actor: Actor,
  input: RemoteAddressInput,
  options: { acceptUnresolved?: boolean } = {},
): Promise<CheckedRemote> {
  const raw = input.address.trim();
  if (raw === '' || /[\0\r\n]/.test(raw)) throw new RemoteAddressError('url');
  const credentialsFrom = (url: URL | undefined): RemoteCredentials | undefined => {
    const username = input.username || (url ? decodeURIComponent(url.username) : '');
    const password = input.password || (url ? decodeURIComponent(url.password) : '');
    return username || password ? { username, password } : undefined;
  };

  // Forgejo: no scheme, or `file:`, is a local path.
  if (raw.startsWith('/') || raw.startsWith('file:')) {
    if (!mayImportLocal(settings, actor)) throw new RemoteAddressError('localDenied');
    const local = raw.startsWith('file:') ? safeFilePath(raw) : raw;
    if (!local || !path.isAbsolute(local)) throw new RemoteAddressError('invalidPath');
    const info = await stat(local).catch(() => undefined);
    if (!info?.isDirectory()) throw new RemoteAddressError('invalidPath');
    const url = `file://${path.resolve(local)}`;
    return { url, sanitized: url, local: true };
  }

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteAddressError('url');
  }
  if (!REMOTE_PROTOCOLS.has(url.protocol)) throw new RemoteAddressError('protocol');
  if (url.hostname === '') throw new RemoteAddressError('url');
  const credentials = credentialsFrom(url);
  url.username = '';
  url.password = '';
  const pinned = await checkHost(settings, url, options.acceptUnresolved ?? false);
  const text = url.toString();
  return { url: text, sanitized: text, credentials, pinned, local: false };
}

/** Local imports: a site administrator, when `[security] IMPORT_LOCAL_PATHS` allows them (Forgejo's CanImportLocal). */
function mayImportLocal(settings: RemoteSettings, actor: Actor): boolean {
  return settings.security.IMPORT_LOCAL_PATHS && isSiteAdmin(actor);
}

function safeFilePath(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    if (url.host !== '' && url.host !== 'localhost') return undefined;
    return decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
}

/**
 * Resolves the URL's host and checks the name and every address: BLOCKED_DOMAINS refuses, ALLOWED_DOMAINS (when
 * set) must match, and any address but a global unicast one (`net/address-class.ts`) needs ALLOW_LOCALNETWORKS.
 * Returns the first address that passed, which every later connection uses.
 */
async function checkHost(settings: RemoteSettings, url: URL, acceptUnresolved: boolean): Promise<CheckedRemote['pinned']> {
  const { ALLOWED_DOMAINS, BLOCKED_DOMAINS, ALLOW_LOCALNETWORKS } = settings.migrations;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    // Stored for later use (a push mirror): the name must pass by itself now; every use resolves and checks it again.
    if (acceptUnresolved && nameMayPass(settings, host)) return undefined;
    // A name that does not resolve cannot be connected to either; a blocked one is still refused as such.
    throw new RemoteAddressError(nameMayPass(settings, host) ? 'unresolved' : 'blocked');
  }
  const blocked = BLOCKED_DOMAINS.trim() === '' ? undefined : hostMatcher(BLOCKED_DOMAINS);
  const allowed = ALLOWED_DOMAINS.trim() === '' ? undefined : hostMatcher(ALLOWED_DOMAINS);
  // Local networks are blocked unless allowed: only global unicast addresses pass then (judged by the IPv4 address
  // an IPv6 one carries, so NAT64 or 6to4 cannot reach inside either).
  const mayConnect = (address: string) => ALLOW_LOCALNETWORKS || classifyAddress(address) === 'external';
  if (blocked?.allowsName(host)) throw new RemoteAddressError('blocked');
  const passing = addresses.filter(
    (a) => !blocked?.allowsAddress(a.address) && mayConnect(a.address) && (!allowed || allowed.allowsName(host) || allowed.allowsAddress(a.address)),
  );
  // Every address must pass: a name with one public and one private address is refused (the resolver may hand
  // git either).
  if (passing.length === 0 || passing.length !== addresses.length) throw new RemoteAddressError('blocked');
  const chosen = passing[0]!;
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : url.protocol === 'git:' ? 9418 : 80);
  return { host, port, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/** A name that did not resolve: not blocked by name, allowed by name when ALLOWED_DOMAINS is set. */
function nameMayPass(settings: RemoteSettings, host: string): boolean {
  const { ALLOWED_DOMAINS, BLOCKED_DOMAINS } = settings.migrations;
  if (BLOCKED_DOMAINS.trim() !== '' && hostMatcher(BLOCKED_DOMAINS).allowsName(host)) return false;
  return ALLOWED_DOMAINS.trim() === '' || hostMatcher(ALLOWED_DOMAINS).allowsName(host);
}

/**
 * Follows a smart-HTTP remote's redirects as git would (on its first request), checking each new host like the
 * first, and returns the remote git should use then with redirects off. A redirect to a refused host is refused.
 */
export async function followRemoteRedirects(
  settings: RemoteSettings,
  actor: Actor,
  remote: CheckedRemote,
  options: { timeoutMs: number; service?: 'git-upload-pack' | 'git-receive-pack'; signal?: AbortSignal },
): Promise<CheckedRemote> {
  if (remote.local || !remote.url.startsWith('http')) return remote;
  let current = remote;
  for (let hop = 0; hop < 5; hop++) {
    const probe = new URL(trimEnd(current.url, '/') + '/info/refs');
    probe.searchParams.set('service', options.service ?? 'git-upload-pack');
    const answer = await remoteRequest(settings, current, probe.toString(), { timeoutMs: options.timeoutMs, signal: options.signal, maxBodyBytes: 0 });
    if (!answer.location) return current;
    const next = new URL(answer.location, probe);
    // git keeps what precedes `/info/refs` in the new location as the repository's address.
    const base = next.pathname.endsWith('/info/refs') ? next.pathname.slice(0, -'/info/refs'.length) : next.pathname;
    next.pathname = base;
    next.search = '';
    const checked = await checkRemoteAddress(settings, actor, { address: next.toString() });
    // Credentials go along only to the same origin, as git sends them.
    const sameOrigin = new URL(current.url).origin === next.origin;
    current = { ...checked, credentials: sameOrigin ? current.credentials : undefined };
  }
  throw new RemoteAddressError('blocked');
}

export interface RemoteResponse {
  status: number;
  headers: Record<string, string>;
  /** Body bytes, up to `maxBodyBytes`. */
  body: Buffer;
  /** The absolute redirect target of a 3xx answer. */
  location?: string;
}

/** An answer whose body is still to be read: the caller reads `body` to its end or destroys it. */
export interface RemoteStreamResponse extends Omit<RemoteResponse, 'body'> {
  body: Readable;
}

export interface RemoteRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Bounds the whole exchange, body included: then the request and its body are destroyed with an error. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** A request body, sent whole (an ActivityPub activity): its Content-Length is set from it. */
  body?: Buffer;
  /** A request body streamed as it is read (an LFS object a push mirror uploads), of `length` bytes. */
  stream?: { source: Readable; length: number };
}

/**
 * One HTTP request to a checked remote, connecting to the pinned address only, within `timeoutMs`, keeping at most
 * `maxBodyBytes` of the answer. Redirects are returned, not followed: callers check the target with
 * `checkRemoteAddress` first (the Gitea/Forgejo API importer and `followRemoteRedirects` do).
 */
export async function remoteRequest(
  settings: RemoteSettings,
  remote: CheckedRemote,
  target: string,
  options: RemoteRequestOptions & { maxBodyBytes: number },
): Promise<RemoteResponse> {
  const answer = await openRemoteRequest(settings, remote, target, options);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Nothing beyond `maxBodyBytes` is wanted: stop reading (leaving the loop destroys the body).
    if (options.maxBodyBytes <= 0) answer.body.destroy();
    else {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        chunks.push(chunk.subarray(0, options.maxBodyBytes - size));
        size += chunk.length;
        if (size >= options.maxBodyBytes) break;
      }
    }
  } catch (error) {
    throw new Error(redactCredentials((error as Error).message, remote.credentials));
  }
  return { status: answer.status, headers: answer.headers, location: answer.location, body: Buffer.concat(chunks) };
}

/**
 * As `remoteRequest`, answering once the status and headers arrive, with the body as a stream (release assets go
 * to storage as they arrive, never whole in memory). The timeout and the signal still bound reading the body.
 */
export function openRemoteRequest(settings: RemoteSettings, remote: CheckedRemote, target: string, options: RemoteRequestOptions): Promise<RemoteStreamResponse> {
  const url = new URL(target);
  const pinned = remote.pinned;
  if (!pinned || url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase() !== pinned.host) {
    return Promise.reject(new RemoteAddressError('blocked'));
  }
  const headers: Record<string, string> = { 'User-Agent': 'RepoHost', ...options.headers };
  if (options.body) headers['Content-Length'] = String(options.body.length);
  if (options.stream) headers['Content-Length'] = String(options.stream.length);
  if (remote.credentials && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
    const { username, password } = remote.credentials;
    headers.Authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<RemoteStreamResponse>((resolve, reject) => {
    let answered: http.IncomingMessage | undefined;
    const stop = (error: Error) => {
      request.destroy(error);
      // Once answered, the body's reader sees why it ended.
      answered?.destroy(error);
    };
    const onAbort = () => stop(new Error('aborted'));
    const timer = setTimeout(() => stop(new Error(`timed out after ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    const request = client.request(
      url,
      {
        method: options.method ?? 'GET',
        headers,
        lookup: (_host, lookupOptions, callback) => {
          const answer = { address: pinned.address, family: pinned.family };
          if ((lookupOptions as { all?: boolean }).all) (callback as (e: null, a: (typeof answer)[]) => void)(null, [answer]);
          else (callback as (e: null, a: string, f: number) => void)(null, answer.address, answer.family);
        },
        rejectUnauthorized: !settings.migrations.SKIP_TLS_VERIFY,
        agent: false,
      },
      (response) => {
        answered = response;
        response.once('close', cleanup);
        const status = response.statusCode ?? 0;
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const location = status >= 300 && status < 400 && responseHeaders.location ? new URL(responseHeaders.location, url).toString() : undefined;
        resolve({ status, headers: responseHeaders, location, body: response });
      },
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      if (answered) return;
      cleanup();
      reject(new Error(redactCredentials(error.message, remote.credentials)));
    });
    if (options.stream) {
      // A source that fails stops the request; one that ends short makes the server see a cut-off body.
      options.stream.source.once('error', (error) => stop(error));
      options.stream.source.pipe(request);
    } else request.end(options.body);
  });
}

/**
 * `git -c …` arguments and environment that make git talk to a checked remote safely: connect to the pinned
 * address, follow no redirects (`followRemoteRedirects` did, with checks), never prompt, and take credentials from
 * the environment through a credential helper, so they appear in neither the command line nor the URL.
 */
export function gitRemoteOptions(remote: CheckedRemote, settings: RemoteSettings): { args: string[]; env: Record<string, string> } {
  const args = ['-c', 'http.followRedirects=false', '-c', 'credential.interactive=false'];
  // git refuses file:// remotes by default since 2.38.1; a local path got here only because the checks allowed it.
  if (remote.local) args.push('-c', 'protocol.file.allow=always');
  if (settings.migrations.SKIP_TLS_VERIFY) args.push('-c', 'http.sslVerify=false');
  if (remote.pinned && remote.url.startsWith('http')) {
    const { host, port, address, family } = remote.pinned;
    args.push('-c', `http.curloptResolve=${host}:${port}:${family === 6 ? `[${address}]` : address}`);
  }
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' };
  if (remote.url.startsWith('git:')) Object.assign(env, gitProtocolPin(remote));
  // Any helper from the server's configuration is dropped (the empty value resets the list), then ours answers.
  args.push('-c', 'credential.helper=');
  if (remote.credentials) {
    args.push('-c', 'credential.helper=!f() { test "$1" = get && printf "username=%s\\npassword=%s\\n" "$REPOHOST_REMOTE_USER" "$REPOHOST_REMOTE_PASSWORD"; }; f');
    env.REPOHOST_REMOTE_USER = remote.credentials.username;
    env.REPOHOST_REMOTE_PASSWORD = remote.credentials.password;
  }
  return { args, env };
}

/**
 * git's own protocol (`git://`) resolves the host itself, with no option to name the address. Through
 * `GIT_PROXY_COMMAND` (the environment wins over any `core.gitProxy`), git hands the connection to a program
 * instead: this Node.js, made to run `GIT_PROTOCOL_PROXY` (`--import` of a data: URL, since git passes only host
 * and port), which connects to the pinned address and nowhere else. The host name still goes to the daemon in
 * the request, so virtual hosting works as before.
 */
function gitProtocolPin(remote: CheckedRemote): Record<string, string> {
  const runsNode = process.release.name === 'node' && process.versions.electron === undefined;
  if (!remote.pinned || !runsNode) throw new RemoteAddressError('unpinnable');
  return {
    GIT_PROXY_COMMAND: process.execPath,
    NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(GIT_PROTOCOL_PROXY)}`,
    REPOHOST_GIT_ADDRESS: remote.pinned.address,
    REPOHOST_GIT_PORT: String(remote.pinned.port),
  };
}

/**
 * The proxy git runs as `node <host> <port>`: it copies stdin to the pinned address and the answer to stdout, and
 * exits before Node.js would look for `<host>` as a script. It ends when git goes (a timeout kills git, not it).
 */
const GIT_PROTOCOL_PROXY = `
import net from 'node:net';
const address = process.env.REPOHOST_GIT_ADDRESS;
const port = Number(process.env.REPOHOST_GIT_PORT);
const parent = process.ppid;
const socket = net.connect({ host: address, port });
socket.on('error', (error) => {
  process.stderr.write('fatal: unable to connect to ' + address + ':' + port + ': ' + error.message + '\\n');
  process.exit(128);
});
process.stdin.pipe(socket);
socket.pipe(process.stdout, { end: false });
process.stdout.on('error', () => process.exit(0));
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 1000).unref();
await new Promise((resolve) => socket.on('close', resolve));
await new Promise((resolve) => process.stdout.write('', resolve));
process.exit(0);
`;

/** `text` with the password, and any `user:password@` in URLs, removed: for error messages and logs. */
export function redactCredentials(text: string, credentials?: RemoteCredentials): string {
  let out = withoutUserinfo(text);
  // The password wherever git or a server echoes it; a user name is no secret (and often also a path segment).
  const secret = credentials?.password;
  if (secret && secret.length >= 3) out = out.split(secret).join('<credentials>');
  return out;
}

const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** `[a-z0-9+.-]`, case-insensitive: what a URL scheme is made of. */
const isSchemeChar = (c: number): boolean => isLetter(c) || isDigit(c) || c === 0x2b || c === 0x2e || c === 0x2d;
const isWordChar = (c: number): boolean => isLetter(c) || isDigit(c) || c === 0x5f;

/** Whether a scheme (`\b[a-z][a-z0-9+.-]*`) ends right before `text[end]`. */
function schemeEndsAt(text: string, end: number): boolean {
  let start = end;
  while (start > 0 && isSchemeChar(text.charCodeAt(start - 1))) start--;
  for (let k = start; k < end; k++) {
    if (isLetter(text.charCodeAt(k)) && (k === 0 || !isWordChar(text.charCodeAt(k - 1)))) return true;
  }
  return false;
}

/**
 * Every `scheme://user:password@` in a text (an error message, git's output) without its user information.
 * A scanner, not the pattern `\b[a-z][a-z0-9+.-]*:\/\/[^/@\s]*@`: that one is quadratic on `a.a.a.a…`, and the
 * text can be a remote server's answer.
 */
function withoutUserinfo(text: string): string {
  let out = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    const separator = text.indexOf('://', from);
    if (separator < 0) break;
    const start = separator + 3;
    from = start;
    if (!schemeEndsAt(text, separator)) continue;
    let end = start;
    for (; end < text.length; end++) {
      const c = text.charCodeAt(end);
      if (c === 0x2f /* / */ || c === 0x40 /* @ */ || /\s/.test(text[end]!)) break;
    }
    if (text.charCodeAt(end) === 0x40) {
      out += text.slice(copied, start);
      copied = end + 1;
      from = end + 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The address as shown and stored (`original_url`, a push mirror's `remote_address`): credentials removed. */
export function sanitizeRemoteUrl(address: string): string {
  try {
    const url = new URL(address);
    if (url.username === '' && url.password === '') return address;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return redactCredentials(address);
  }
}

const CREDENTIALS_PURPOSE = 'remote credentials';

/** Credentials at rest (migrations, mirrors): encrypted under `[security] SECRET_KEY`; none is the empty string. */
export function encryptRemoteCredentials(secretKey: string, credentials: RemoteCredentials | undefined): string {
  return credentials ? encryptSecret(secretKey, CREDENTIALS_PURPOSE, JSON.stringify(credentials)) : '';
}

/** Stored credentials moved to a new key (`repohost admin regenerate secrets`). */
export function rekeyRemoteCredentials(rekey: SecretRekey, stored: string): RekeyOutcome {
  return rekeySecret(rekey, CREDENTIALS_PURPOSE, stored);
}

/** The stored credentials; undefined when there are none or they no longer decrypt (SECRET_KEY changed). */
export function decryptRemoteCredentials(secretKey: string, stored: string): RemoteCredentials | undefined {
  if (!stored) return undefined;
  const text = decryptSecret(secretKey, CREDENTIALS_PURPOSE, stored);
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<RemoteCredentials>;
    return { username: String(value.username ?? ''), password: String(value.password ?? '') };
  } catch {
    return undefined;
  }
}
