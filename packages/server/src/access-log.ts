import { close as closeFd, mkdir, open as openFd, write as writeFd } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { H3Event } from 'h3';
import type { Actor, RepoHost } from '@repohost/core';
import { requestClientAddress } from './client-address.js';

/**
 * One line per HTTP request, as Forgejo's access log (`[log] ENABLE_ACCESS_LOG`): API, git over HTTP, packages and
 * pages alike, written when the response has gone out (so a clone's line comes when the clone ends, with its size
 * and duration). Two formats:
 *
 * - `text`: the line of Forgejo's default `ACCESS_LOG_TEMPLATE` (the only template: Go templates are not
 *   interpreted), `client - user [time] "METHOD /uri HTTP/1.1" status bytes "referer" "user-agent"`;
 * - `json` (RepoHost's own): one object per line with time, method, route template, path, status, duration, bytes,
 *   user, client address and user agent.
 *
 * Lines go to `ROOT_PATH/access.log` (`[log] ACCESS = file`, appended, never rotated here: rotate with a tool that
 * copies and truncates, or move it and restart) or standard output (`ACCESS = console`), always without blocking the
 * event loop (see LineWriter).
 */

/** What the observer knows of a request while it runs. */
interface RequestRecord {
  /** performance.now() at the start. */
  start: number;
  /** Date.now() at the start. */
  startedAt: number;
  /** The signed-in user's name, once authentication said who it is. */
  user?: string;
  /** Body bytes written. */
  bytes: number;
}

const records = new WeakMap<H3Event, RequestRecord>();

/** Records who a request is, for its log line (anonymous and system actors are `-`). */
export function noteActor(event: H3Event, actor: Actor): void {
  const record = records.get(event);
  if (record) record.user = actor.kind === 'user' ? actor.user.name : undefined;
}

/** Records a signed-in user by name (web pages, whose sessions name a user). */
export function noteUser(event: H3Event, name: string | undefined): void {
  const record = records.get(event);
  if (record) record.user = name;
}

/** What one request came to, for the log and the metrics. */
export interface RequestOutcome {
  /** When it began (ms since the epoch). */
  startedAt: number;
  method: string;
  /** The route's template as registered (`/api/v1/repos/:owner/:repo`), or `unmatched`. */
  route: string;
  /** The request target as received: path and query. */
  target: string;
  /** `HTTP/1.1`. */
  protocol: string;
  /** The status sent; 499 when the client went away before any was. */
  status: number;
  durationMs: number;
  bytes: number;
  user: string | undefined;
  client: string | undefined;
  referer: string;
  userAgent: string;
}

/** Receives each request's outcome once its response has ended. */
export type RequestObserver = (outcome: RequestOutcome) => void;

/** Counts the body bytes `res` writes into `record`. */
function countBytes(res: ServerResponse, record: RequestRecord): void {
  const length = (chunk: unknown, encoding: unknown): number => {
    if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    return (chunk as { byteLength?: number } | null | undefined)?.byteLength ?? 0;
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    record.bytes += length(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (chunk !== undefined && typeof chunk !== 'function') record.bytes += length(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
}

/** Node's request and response under an event; absent for a request made in-process (`app.fetch`). */
function nodeOf(event: H3Event): { req: IncomingMessage; res: ServerResponse } | undefined {
  const node = event.runtime?.node as { req?: IncomingMessage; res?: ServerResponse } | undefined;
  return node?.req && node.res ? { req: node.req, res: node.res } : undefined;
}

/** The methods a route may have; any other is counted as `OTHER`, so a client cannot make up series. */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * An h3 `onRequest` hook that follows each request served by Node to the end of its response and hands its
 * outcome to the observers. `countBody` counts the bytes of each body (the access log needs them). Requests made
 * in-process are not followed.
 */
export function requestObserverHook(observers: readonly RequestObserver[], options: { countBody: boolean }): (event: H3Event) => void {
  return (event) => {
    const node = nodeOf(event);
    // Once per request: the error hook calls it too, for what h3 refuses before `onRequest` (a malformed path).
    if (!node || records.has(event)) return;
    const record: RequestRecord = { start: performance.now(), startedAt: Date.now(), bytes: 0 };
    records.set(event, record);
    if (options.countBody) countBytes(node.res, record);
    node.res.once('close', () => {
      const { req, res } = node;
      const method = req.method ?? 'GET';
      const matched = (event.context as { matchedRoute?: { route?: string } }).matchedRoute;
      const outcome: RequestOutcome = {
        startedAt: record.startedAt,
        method: METHODS.has(method) ? method : 'OTHER',
        route: matched?.route ?? 'unmatched',
        target: req.url ?? '',
        protocol: `HTTP/${req.httpVersion}`,
        // Nothing was sent: the client went away first (nginx's 499).
        status: res.headersSent ? res.statusCode : 499,
        durationMs: performance.now() - record.start,
        bytes: record.bytes,
        user: record.user,
        client: requestClientAddress(event),
        referer: headerText(req.headers.referer),
        userAgent: headerText(req.headers['user-agent']),
      };
      for (const observe of observers) {
        try {
          observe(outcome);
        } catch (error) {
          console.error('[repohost] request observer failed:', error);
        }
      }
    });
  };
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

// ---- the line ----

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** Go's `[02/Jan/2006:15:04:05 -0700]`, in the server's time zone. */
export function commonLogTime(at: number): string {
  const date = new Date(at);
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `[${two(date.getDate())}/${MONTHS[date.getMonth()]}/${date.getFullYear()}:${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())} ${sign}${two(Math.floor(abs / 60))}${two(abs % 60)}]`;
}

/**
 * A value between the line's double quotes: a quote, a backslash and control characters are written as `\xHH` (as
 * nginx does), so a user agent cannot forge fields or lines. Forgejo writes them raw.
 */
function quoted(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code !== 0x22 && code !== 0x5c && code !== 0x7f) continue;
    out += `${text.slice(from, i)}\\x${code.toString(16).padStart(2, '0')}`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The query parameters that carry credentials (Forgejo's deprecated token in the URL): their values are not logged. */
const SECRET_PARAMS: ReadonlySet<string> = new Set(['token', 'access_token']);

/** The request target with the values of credential parameters replaced by `REDACTED`. */
export function redactedTarget(target: string): string {
  const question = target.indexOf('?');
  if (question < 0) return target;
  const parts = target.slice(question + 1).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const equals = part.indexOf('=');
    const name = equals < 0 ? part : part.slice(0, equals);
    if (equals >= 0 && SECRET_PARAMS.has(name.toLowerCase())) {
      parts[i] = `${name}=REDACTED`;
      changed = true;
    }
  }
  return changed ? `${target.slice(0, question + 1)}${parts.join('&')}` : target;
}

/** Forgejo's default access line (`ACCESS_LOG_TEMPLATE`), with its newline. */
export function textLine(o: RequestOutcome): string {
  return `${o.client ?? '-'} - ${o.user ?? '-'} ${commonLogTime(o.startedAt)} "${o.method} ${quoted(redactedTarget(o.target))} ${o.protocol}" ${o.status} ${o.bytes} "${quoted(o.referer)}" "${quoted(o.userAgent)}"\n`;
}

/** The structured line: one JSON object. */
export function jsonLine(o: RequestOutcome): string {
  const question = o.target.indexOf('?');
  return `${JSON.stringify({
    time: new Date(o.startedAt).toISOString(),
    method: o.method,
    route: o.route,
    path: question < 0 ? o.target : o.target.slice(0, question),
    status: o.status,
    duration_ms: Math.round(o.durationMs * 1000) / 1000,
    bytes: o.bytes,
    user: o.user ?? null,
    client: o.client ?? null,
    user_agent: o.userAgent,
  })}\n`;
}

// ---- writing ----

/** Bytes of lines a writer holds while the output is slow; past it, lines are dropped (and counted). */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/** Bytes written at most in one write: whole lines up to the size a pipe writes atomically (PIPE_BUF). */
const WRITE_CHUNK = 4096;
/** Pause before writing again to an output that said "try again" (a non-blocking pipe that is full). */
const RETRY_MS = 20;
/** How long closing waits for the lines still queued. */
const CLOSE_WAIT_MS = 2000;

/**
 * Appends lines to a file or standard output with `fs.write` on libuv's thread pool, so a slow disk or a reader
 * that does not keep up never holds the event loop (`process.stdout` writes synchronously to files and pipes).
 * Lines wait in memory, at most MAX_QUEUED_BYTES of them; beyond that they are dropped and counted rather than
 * let memory grow. Each write is made of whole lines and, unless one line is longer, at most PIPE_BUF bytes, so
 * processes sharing one output (`--workers`, all appending to one file or one pipe) never mix their lines.
 */
export class LineWriter {
  private readonly queue: string[] = [];
  private queuedBytes = 0;
  private writing = false;
  private fd: number | undefined;
  private opened: Promise<void> | undefined;
  private failure: Error | undefined;
  private closed = false;
  private drained: (() => void)[] = [];
  /** Lines dropped: the queue was full, or the output failed. */
  dropped = 0;
  private warned = false;

  constructor(private readonly target: { file: string } | { fd: number }) {
    if ('fd' in target) this.fd = target.fd;
  }

  /** Opens the file (creating its folder); rejects when it cannot be, with the reason. */
  open(): Promise<void> {
    if (this.fd !== undefined || !('file' in this.target)) return Promise.resolve();
    const file = this.target.file;
    this.opened ??= new Promise<void>((resolve, reject) => {
      mkdir(path.dirname(file), { recursive: true, mode: 0o750 }, (mkdirError) => {
        if (mkdirError) return reject(mkdirError);
        openFd(file, 'a', 0o640, (error, fd) => {
          if (error) return reject(error);
          this.fd = fd;
          resolve();
          this.pump();
        });
      });
    }).catch((error: Error) => {
      this.failure = error;
      throw error;
    });
    return this.opened;
  }

  write(line: string): void {
    if (this.closed) return;
    const size = Buffer.byteLength(line);
    if (this.failure || this.queuedBytes + size > MAX_QUEUED_BYTES) {
      this.drop(1, this.failure ? `cannot be written (${this.failure.message})` : 'is not keeping up');
      return;
    }
    this.queue.push(line);
    this.queuedBytes += size;
    if (this.fd === undefined) void this.open().catch(() => this.drop(this.takeAll(), 'cannot be opened'));
    else this.pump();
  }

  private drop(lines: number, why: string): void {
    this.dropped += lines;
    if (this.warned) return;
    this.warned = true;
    console.error(`[repohost] access log ${'file' in this.target ? this.target.file : 'output'} ${why}: dropping lines (counted in /metrics)`);
  }

  private takeAll(): number {
    const lines = this.queue.length;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.settle();
    return lines;
  }

  private pump(): void {
    if (this.writing || this.fd === undefined || this.queue.length === 0) return;
    // Whole lines, up to WRITE_CHUNK bytes (at least one line).
    let text = this.queue.shift()!;
    let size = Buffer.byteLength(text);
    while (this.queue.length > 0 && size + Buffer.byteLength(this.queue[0]!) <= WRITE_CHUNK) {
      const next = this.queue.shift()!;
      text += next;
      size += Buffer.byteLength(next);
    }
    this.queuedBytes -= size;
    this.writing = true;
    this.writeAll(Buffer.from(text), 0);
  }

  private writeAll(buffer: Buffer, offset: number): void {
    writeFd(this.fd!, buffer, offset, buffer.length - offset, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          setTimeout(() => this.writeAll(buffer, offset), RETRY_MS).unref();
          return;
        }
        this.writing = false;
        this.failure = error;
        this.drop(countLines(buffer) + this.takeAll(), `cannot be written (${error.message})`);
        return;
      }
      if (offset + written < buffer.length) return this.writeAll(buffer, offset + written);
      this.writing = false;
      if (this.queue.length > 0) this.pump();
      else this.settle();
    });
  }

  private settle(): void {
    if (this.writing || this.queue.length > 0) return;
    for (const resolve of this.drained.splice(0)) resolve();
  }

  /** Waits (a little) for the queued lines, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.writing || this.queue.length > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CLOSE_WAIT_MS);
        timer.unref();
        this.drained.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.closed = true;
    const fd = this.fd;
    if ('file' in this.target && fd !== undefined && !this.writing) {
      this.fd = undefined;
      await new Promise<void>((resolve) => closeFd(fd, () => resolve()));
    }
  }
}

function countLines(buffer: Buffer): number {
  let lines = 0;
  for (let i = buffer.indexOf(0x0a); i >= 0; i = buffer.indexOf(0x0a, i + 1)) lines++;
  return lines;
}

/** The access log `[log]` configures, or undefined when it is off. */
export interface AccessLog {
  readonly writer: LineWriter;
  readonly observe: RequestObserver;
}

export function accessLogOf(host: RepoHost): AccessLog | undefined {
  const log = host.settings.log;
  if (!log.ENABLE_ACCESS_LOG) return undefined;
  const writer = new LineWriter(log.ACCESS === 'console' ? { fd: 1 } : { file: path.join(log.ROOT_PATH, 'access.log') });
  const format = log.ACCESS_LOG_FORMAT === 'json' ? jsonLine : textLine;
  return { writer, observe: (outcome) => writer.write(format(outcome)) };
}
