/**
 * The remote instance's API as a migration reads it: JSON pages of `/api/v1/…` and release asset downloads, each
 * request through `remoteRequest` (the checked, pinned address; a timeout; a body limit), retried on 5xx answers
 * and network failures per `[migrations] MAX_ATTEMPTS`/`RETRY_BACKOFF`, following redirects only to addresses
 * `checkRemoteAddress` accepts. Credentials (token or basic) go to the remote's own origin only; every error text
 * is redacted.
 */
import type { Actor } from '../../users/index.js';
import type { Settings } from '../../config/index.js';
import type { Readable } from 'node:stream';
import { BlobTooLargeError } from '../../blobs/index.js';
import {
  checkRemoteAddress,
  openRemoteRequest,
  redactCredentials,
  remoteRequest,
  type CheckedRemote,
  type RemoteResponse,
  type RemoteStreamResponse,
} from '../../remote/index.js';

/** A migration that cannot go on: the remote failed, answered what it should not, or the job was stopped. */
export class MigrationError extends Error {
  constructor(
    message: string,
    /** The remote's HTTP status, when the remote refused a request. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

/** Largest JSON answer read from the remote (a page of items). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;
/** Longest a single API request may take (less when `[git.timeout] MIGRATE` is shorter). */
const MAX_API_REQUEST_SECONDS = 120;
/** Redirects followed per request, as git and Go's client stop after a few. */
const MAX_REDIRECTS = 5;

export interface GiteaClientOptions {
  settings: Pick<Settings, 'migrations' | 'security' | 'git.timeout'>;
  /** Who migrates: redirect targets are checked as if they had typed them. */
  actor: Actor;
  /** The remote instance's base URL (`http://host/` or `http://host/sub/path/`) and its basic credentials. */
  remote: CheckedRemote;
  /** An access token on the remote; preferred over basic credentials, as Forgejo's downloader does. */
  token?: string;
  signal: AbortSignal;
}

/** One JSON answer: the decoded body and the list total (`X-Total-Count`) when the remote sent one. */
export interface JsonAnswer {
  body: unknown;
  total?: number;
}

export class GiteaApiClient {
  private readonly base: URL;
  private readonly apiTimeoutMs: number;
  private readonly downloadTimeoutMs: number;

  constructor(private readonly options: GiteaClientOptions) {
    const base = new URL(options.remote.url);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    base.search = '';
    base.hash = '';
    this.base = base;
    const migrateSeconds = Math.max(1, options.settings['git.timeout'].MIGRATE);
    this.apiTimeoutMs = Math.min(migrateSeconds, MAX_API_REQUEST_SECONDS) * 1000;
    this.downloadTimeoutMs = migrateSeconds * 1000;
  }

  /** The remote's web base, as its API shows it in download URLs. */
  get baseUrl(): string {
    return this.base.toString();
  }

  /** `GET {base}api/v1/{path}` decoded as JSON; `undefined` for a 404 when `allowNotFound`. */
  async getJson(path: string, query: Record<string, string | number> = {}, options: { allowNotFound?: boolean } = {}): Promise<JsonAnswer | undefined> {
    const url = new URL(`api/v1/${path.replace(/^\/+/, '')}`, this.base);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
    const answer = await this.request(url.toString(), { accept: 'application/json', timeoutMs: this.apiTimeoutMs, maxBodyBytes: MAX_JSON_BYTES });
    if (answer.status === 404 && options.allowNotFound) return undefined;
    if (answer.status !== 200) throw new MigrationError(`${this.describe(url)} answered ${answer.status}${this.errorDetail(answer)}`, answer.status);
    if (answer.body.length >= MAX_JSON_BYTES) throw new MigrationError(`${this.describe(url)}: the answer is larger than ${MAX_JSON_BYTES} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new MigrationError(`${this.describe(url)} did not answer JSON`);
    }
    const totalHeader = answer.headers['x-total-count'];
    const total = totalHeader !== undefined && /^\d+$/.test(totalHeader.trim()) ? Number(totalHeader.trim()) : undefined;
    return { body, total };
  }

  /**
   * Streams the file at `url` (a release asset) into `store`, which returns the bytes it kept: more than `maxBytes`
   * fails the migration rather than being cut, and so does a file shorter than the remote announced. Only URLs
   * under the remote's base are fetched (checked like the base, credentials included).
   */
  async download(url: string, maxBytes: number, store: (body: Readable) => Promise<number>): Promise<number> {
    const target = new URL(url);
    const answer = await this.open(target.toString(), { accept: '*/*', timeoutMs: this.downloadTimeoutMs });
    try {
      if (answer.status !== 200) throw new MigrationError(`${this.describe(target)} answered ${answer.status}`);
      const declared = Number(answer.headers['content-length']);
      const tooLarge = () => new MigrationError(`${this.describe(target)}: the file is larger than ${maxBytes} bytes`);
      if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
      let size: number;
      try {
        size = await store(answer.body);
      } catch (error) {
        if (error instanceof BlobTooLargeError) throw tooLarge();
        throw new MigrationError(`${this.describe(target)}: ${this.redact(error instanceof Error ? error.message : String(error))}`);
      }
      if (Number.isFinite(declared) && size !== declared) throw new MigrationError(`${this.describe(target)}: the download was cut short`);
      return size;
    } finally {
      answer.body.destroy();
    }
  }

  /** True when `url` lies under the remote's base URL (same origin, same path prefix). */
  isUnderBase(url: string): boolean {
    try {
      const target = new URL(url);
      return target.origin === this.base.origin && target.pathname.startsWith(this.base.pathname);
    } catch {
      return false;
    }
  }

  /** Stops between items when the job was aborted (timeout, host closing). */
  checkAborted(): void {
    if (this.options.signal.aborted) throw new MigrationError('the migration was stopped');
  }

  /** A message with the remote's credentials and token taken out. */
  redact(text: string): string {
    let out = redactCredentials(text, this.options.remote.credentials);
    const token = this.options.token;
    if (token && token.length >= 3) out = out.split(token).join('<token>');
    return out;
  }

  /**
   * One logical request: retried on 5xx and on network failures (timeouts included) with doubling backoff,
   * following redirects that pass the address checks. 4xx answers come back as they are.
   */
  private request(target: string, options: { accept: string; timeoutMs: number; maxBodyBytes: number }): Promise<RemoteResponse> {
    const send = (remote: CheckedRemote, url: string, headers: Record<string, string>) =>
      remoteRequest(this.options.settings, remote, url, { headers, timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes, signal: this.options.signal });
    return this.withRetries(target, () => this.follow(target, options.accept, send, () => undefined), () => undefined);
  }

  /** As `request`, the body left to read (or destroy) by the caller. */
  private open(target: string, options: { accept: string; timeoutMs: number }): Promise<RemoteStreamResponse> {
    const send = (remote: CheckedRemote, url: string, headers: Record<string, string>) =>
      openRemoteRequest(this.options.settings, remote, url, { headers, timeoutMs: options.timeoutMs, signal: this.options.signal });
    const discard = (answer: RemoteStreamResponse) => void answer.body.destroy();
    return this.withRetries(target, () => this.follow(target, options.accept, send, discard), discard);
  }

  private async withRetries<T extends { status: number }>(target: string, attempt: () => Promise<T>, discard: (answer: T) => void): Promise<T> {
    const { migrations } = this.options.settings;
    const attempts = Math.max(1, migrations.MAX_ATTEMPTS);
    let lastError = '';
    for (let n = 1; n <= attempts; n++) {
      this.checkAborted();
      if (n > 1) await this.sleep(Math.max(0, migrations.RETRY_BACKOFF) * 1000 * 2 ** (n - 2));
      try {
        const answer = await attempt();
        if (answer.status < 500) return answer;
        discard(answer);
        lastError = `answered ${answer.status}`;
      } catch (error) {
        if (error instanceof MigrationError) throw error;
        if (this.options.signal.aborted) throw new MigrationError('the migration was stopped');
        lastError = this.redact(error instanceof Error ? error.message : String(error));
      }
    }
    throw new MigrationError(`${this.describe(new URL(target))} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${lastError}`);
  }

  /** Sends `target`, and again to each redirect's target that passes the address checks; `discard` drops a redirect's answer. */
  private async follow<T extends { location?: string }>(
    target: string,
    accept: string,
    send: (remote: CheckedRemote, url: string, headers: Record<string, string>) => Promise<T>,
    discard: (answer: T) => void,
  ): Promise<T> {
    let remote = this.options.remote;
    let url = target;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const sameOrigin = new URL(url).origin === this.base.origin;
      const headers: Record<string, string> = { Accept: accept };
      if (sameOrigin && this.options.token) headers.Authorization = `token ${this.options.token}`;
      // Basic credentials (the request adds them from `remote`) go to the remote's own origin only.
      const answer = await send(sameOrigin ? remote : { ...remote, credentials: undefined }, url, headers);
      const location = answer.location;
      if (!location) return answer;
      discard(answer);
      try {
        remote = await checkRemoteAddress(this.options.settings, this.options.actor, { address: location });
      } catch {
        throw new MigrationError(`${this.describe(new URL(url))} redirected to a refused address`);
      }
      if (new URL(location).origin === this.base.origin) remote = { ...remote, credentials: this.options.remote.credentials };
      url = location;
    }
    throw new MigrationError(`${this.describe(new URL(target))}: too many redirects`);
  }

  /** `GET /api/v1/…` of the remote, for messages: no query string, no credentials. */
  private describe(url: URL): string {
    return this.redact(`the remote ${url.origin}${url.pathname}`);
  }

  /** Forgejo's error body `{message}`, shortened, for a failed answer. */
  private errorDetail(answer: RemoteResponse): string {
    try {
      const body = JSON.parse(answer.body.toString('utf8')) as { message?: unknown };
      if (typeof body.message === 'string' && body.message !== '') return `: ${this.redact(body.message.slice(0, 200))}`;
    } catch {
      // Not JSON: the status says enough.
    }
    return '';
  }

  private sleep(ms: number): Promise<void> {
    const signal = this.options.signal;
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
