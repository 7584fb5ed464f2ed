import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { HTTPError, HTTPHandler, H3Event, H3Route, MatchedRoute, RouteOptions } from 'h3';
import { H3, getRouterParams } from 'h3';
import { FastResponse } from 'srvx';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import {
  API_PREFIX,
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
  apiDocsUrl,
  clampPage,
  fieldName,
  parseInput,
  scopesGrant,
  stringifySharedBytes,
  type Page,
  type RepoHost,
  type ScopeCategory,
  type ScopeLevel,
} from '@repohost/core';
import { applySudo, authenticate, QUERY_TOKEN_WARNING, type Authentication, type CredentialSource } from '../auth.js';
import { copyRateLimitHeaders, RequestLimits } from '../rate-limits.js';
import { noteActor } from '../access-log.js';
import { peerAddress, requestClientAddress } from '../client-address.js';
import { errorStatus, HttpError } from './errors.js';
import type { AnyRouteSpec, GroupOptions, Loader, PathParams, RegisteredRoute, Reply, RequestBase, RouteSpec } from './contract.js';
import { MovedError, movedResponse } from './redirects.js';

/** `page` and `limit`, as every list takes them. */
export const PagingQuery = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results' })),
});

/** A page of items converted for the wire (`toApiX`), as a list route returns it. */
export function mapPage<T, U>(page: Page<T>, convert: (item: T) => U): Page<U> {
  return { items: page.items.map(convert), total: page.total };
}

/** A route's request body limit when its spec sets no `maxBodyBytes`. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Forgejo's API answers are never cached by shared caches nor transformed by proxies (APIContexter). */
const API_CACHE_CONTROL = 'max-age=0, private, must-revalidate, no-transform';

/** Forgejo's and Gitea's `[cors] X_FRAME_OPTIONS` default, which their APIContexter sends on every API answer. */
const X_FRAME_OPTIONS = 'SAMEORIGIN';

/** Headers every API answer starts with: a fresh plain record per request, cheaper than web Headers. */
export function apiResponseHeaders(): ResponseHeaders {
  return {
    'content-type': 'application/json;charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': API_CACHE_CONTROL,
    'x-frame-options': X_FRAME_OPTIONS,
  };
}

/**
 * A response a handler built itself (a raw file, an archive, a redirect) carries the API's frame policy too, whether
 * or not it started from `responseHeaders`.
 */
function withFrameOptions(response: Response): Response {
  if (!response.headers.has('x-frame-options')) response.headers.set('x-frame-options', X_FRAME_OPTIONS);
  return response;
}

/**
 * Routes under a path prefix that share what they load and what they say. A group's loader resolves the resource
 * its path names and the caller's access to it, once per request, before any handler runs; a resource the caller
 * may not see ends the request with 404 there. Its guards (`guards.ts`) refuse a caller before the group loads
 * anything more. Its defaults (`tag`, `auth`, `scopes`) hold for each of its routes that does not name its own, and
 * for the groups nested in it. Handlers receive what the loaders returned.
 */
export class RouteGroup<Prefix extends string, Loaded, Tagged extends boolean = false> {
  constructor(
    protected readonly table: RouteTable,
    readonly prefix: Prefix,
    private readonly loaders: readonly Loader[],
    private readonly defaults: RouteDefaults = {},
  ) {}

  /**
   * A group below this one: loading more (`repo.nest('/issues/{index}', loadIssue)`), guarded
   * (`repo.nest('', { guard: requireRepoAdmin })`), or only saying more (`repo.nest('', { tag: 'issue' })`).
   */
  nest<const Sub extends string, More extends object>(
    path: Sub,
    load: (ctx: GroupContext<`${Prefix}${Sub}`, Loaded>) => Promise<More>,
    options: GroupOptions<GroupContext<`${Prefix}${Sub}`, Loaded>> & { tag: string },
  ): RouteGroup<`${Prefix}${Sub}`, Loaded & More, true>;
  nest<const Sub extends string, More extends object>(
    path: Sub,
    load: (ctx: GroupContext<`${Prefix}${Sub}`, Loaded>) => Promise<More>,
    options?: GroupOptions<GroupContext<`${Prefix}${Sub}`, Loaded>>,
  ): RouteGroup<`${Prefix}${Sub}`, Loaded & More, Tagged>;
  nest<const Sub extends string>(
    path: Sub,
    options: GroupOptions<GroupContext<`${Prefix}${Sub}`, Loaded>> & { tag: string },
  ): RouteGroup<`${Prefix}${Sub}`, Loaded, true>;
  nest<const Sub extends string>(path: Sub, options?: GroupOptions<GroupContext<`${Prefix}${Sub}`, Loaded>>): RouteGroup<`${Prefix}${Sub}`, Loaded, Tagged>;
  nest(path: string, loadOrOptions?: unknown, options?: GroupOptions<never>): RouteGroup<string, unknown, boolean> {
    const [load, opts] = loaderAndOptions(loadOrOptions, options);
    return new RouteGroup(this.table, `${this.prefix}${path}`, groupLoaders(this.loaders, load, opts), { ...this.defaults, ...routeDefaults(opts) });
  }

  add<
    const Path extends string,
    Q extends TObject | undefined = undefined,
    B extends TSchema | undefined = undefined,
    const R extends Reply = Reply,
  >(spec: RouteSpec<Path, PathParams<`${Prefix}${Path}`>, Loaded, Q, B, R> & (Tagged extends true ? unknown : { tag: string })): void {
    const { tag = this.defaults.tag, auth = this.defaults.auth, scopes = this.defaults.scopes } = spec as AnyRouteSpec;
    if (tag === undefined) throw new Error(`route ${spec.operationId} has no tag, nor has its group`);
    const resolved = { ...(spec as AnyRouteSpec), tag, ...(auth && { auth }), ...(scopes && { scopes }) };
    this.table.register({ spec: resolved, path: `${this.prefix}${spec.path}`, loaders: this.loaders });
  }
}

/** What a group's routes hold unless they say otherwise. */
type RouteDefaults = Pick<GroupOptions<never>, 'tag' | 'auth' | 'scopes'>;

/** What a request's context holds in a group: the request, the path's parameters, what the groups loaded. */
type GroupContext<Path extends string, Loaded> = RequestBase<PathParams<Path>> & Loaded;

function routeDefaults(options: GroupOptions<never> | undefined): RouteDefaults {
  const out: RouteDefaults = {};
  if (options?.tag !== undefined) out.tag = options.tag;
  if (options?.auth !== undefined) out.auth = options.auth;
  if (options?.scopes !== undefined) out.scopes = options.scopes;
  return out;
}

/** `group`'s and `nest`'s arguments after the path: a loader and options, or options alone. */
function loaderAndOptions(loadOrOptions: unknown, options: GroupOptions<never> | undefined): [Loader | undefined, GroupOptions<never> | undefined] {
  return typeof loadOrOptions === 'function' ? [loadOrOptions as Loader, options] : [undefined, loadOrOptions as GroupOptions<never> | undefined];
}

/** The loaders of a nested group: its parent's, then one step that runs its guards and its own loader, if any. */
function groupLoaders(parent: readonly Loader[], load: Loader | undefined, options: GroupOptions<never> | undefined): readonly Loader[] {
  const guard = options?.guard;
  const guards = (guard === undefined ? [] : typeof guard === 'function' ? [guard] : [...guard]) as ((ctx: unknown) => void | Promise<void>)[];
  if (guards.length === 0) return load ? [...parent, load] : parent;
  return [
    ...parent,
    async (ctx) => {
      for (const check of guards) await check(ctx);
      return load ? load(ctx) : {};
    },
  ];
}

/** The API's routes: `add` a top-level route, or open a `group` and add routes to it. */
export class ApiRouter extends RouteGroup<'', unknown> {
  constructor(app: H3, host: RepoHost) {
    super(new RouteTable(app, host), '', []);
  }

  /** Every route registered so far, in order: the one list the OpenAPI document and its tests read. */
  get routes(): readonly RegisteredRoute[] {
    return this.table.routes;
  }

  /** A top-level group (`router.group('/users/{username}', loadUser, { tag: 'user' })`); see `nest` for the options. */
  group<const Prefix extends string, Loaded extends object>(
    prefix: Prefix,
    load: (ctx: RequestBase<PathParams<Prefix>>) => Promise<Loaded>,
    options: GroupOptions<RequestBase<PathParams<Prefix>>> & { tag: string },
  ): RouteGroup<Prefix, Loaded, true>;
  group<const Prefix extends string, Loaded extends object>(
    prefix: Prefix,
    load: (ctx: RequestBase<PathParams<Prefix>>) => Promise<Loaded>,
    options?: GroupOptions<RequestBase<PathParams<Prefix>>>,
  ): RouteGroup<Prefix, Loaded>;
  group<const Prefix extends string>(prefix: Prefix, options: GroupOptions<RequestBase<PathParams<Prefix>>> & { tag: string }): RouteGroup<Prefix, unknown, true>;
  group<const Prefix extends string>(prefix: Prefix, options?: GroupOptions<RequestBase<PathParams<Prefix>>>): RouteGroup<Prefix, unknown>;
  group(prefix: string, loadOrOptions?: unknown, options?: GroupOptions<never>): RouteGroup<string, unknown, boolean> {
    const [load, opts] = loaderAndOptions(loadOrOptions, options);
    return new RouteGroup(this.table, prefix, groupLoaders([], load, opts), routeDefaults(opts));
  }
}

/** Mounts routes on the h3 app and runs a request through its route: authenticate, load, check, parse, handle. */
export class RouteTable {
  readonly routes: RegisteredRoute[] = [];
  /** `[api.ratelimit]`, when enabled. */
  private readonly limits: RequestLimits | undefined;

  constructor(
    private readonly app: H3,
    private readonly host: RepoHost,
  ) {
    this.limits = RequestLimits.of(host);
  }

  register(route: RegisteredRoute): void {
    const { spec } = route;
    this.routes.push(route);
    const query = 'list' in spec.reply ? Type.Object({ ...PagingQuery.properties, ...spec.query?.properties }) : spec.query;
    // A trailing `{filepath}`, `{ref}`, `{branch}` or `{tag}` spans slashes (`raw/docs/a.md`, `branches/feat/x`), as Forgejo's `*`.
    // A name with hyphens (Forgejo's `{user-id}`) is no router parameter name: the router knows it with underscores.
    const h3Path = API_PREFIX + route.path.replace(/\{(filepath|ref|branch|tag)\}$/, '**:$1').replace(/\{(\w+(?:-\w+)*)\}/g, (_, name: string) => `:${name.replaceAll('-', '_')}`);
    const hyphenated = [...route.path.matchAll(/\{(\w+(?:-\w+)+)\}/g)].map((match) => match[1]!);
    // The search endpoints (`/repos/search`, `/users/search`, `/orgs/{org}/teams/search`, …) count apart, as GitHub's.
    const resource = route.path.endsWith('/search') ? 'search' : 'core';
    this.app.on(spec.method, h3Path, (event) => this.handle(route, query, event, hyphenated, resource));
  }

  private async handle({ spec, loaders }: RegisteredRoute, querySchema: TObject | undefined, event: H3Event, hyphenated: readonly string[], resource: 'core' | 'search'): Promise<Response> {
    const host = this.host;
    // A plain record and srvx's FastResponse: web Headers/Response objects cost more than the route itself.
    const headers = apiResponseHeaders();
    try {
      const url = event.url;
      // Forgejo warns about a query token whatever becomes of it (rejected, disabled, or overridden by a header).
      if (url.searchParams.get('token') || url.searchParams.get('access_token')) headers.warning = QUERY_TOKEN_WARNING;
      const limits = this.limits;
      let auth: Authentication;
      if (limits === undefined) auth = await authenticate(host, requestCredentials(event), { allowReverseProxy: true });
      else {
        // `[api.ratelimit]`: the call counts for its caller (`rate-limits.ts`), its headers go into `headers`, a spent
        // limit throws the 429; refused credentials count for the client's address.
        try {
          auth = await authenticate(host, requestCredentials(event), { allowReverseProxy: true });
        } catch (error) {
          await limits.countRefused(resource, error, event, headers);
          throw error;
        }
        const counted = limits.count(resource, auth.actor, event, headers);
        if (counted instanceof Promise) await counted;
      }
      auth = await applySudo(host, auth, event.req.headers.get('sudo') || url.searchParams.get('sudo'));
      noteActor(event, auth.actor);
      if (spec.auth === 'token' && auth.actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
      const ctx: Record<string, unknown> & RequestBase<Record<string, string>> = {
        event,
        host,
        auth,
        actor: auth.actor,
        params: withHyphenatedParams(decodedRouterParams(event), hyphenated),
        view: { viewer: auth.actor, settings: host.settings },
        responseHeaders: headers,
      };
      for (const load of loaders) Object.assign(ctx, await load(ctx));
      checkScopes(spec, ctx);
      const query = querySchema ? parseInput(querySchema, queryObject(url.searchParams, querySchema)) : {};
      ctx.query = query;
      if (spec.body && spec.bodyType === 'text/plain') ctx.body = await readTextBody(event, spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      else if (spec.body) ctx.body = parseInput(spec.body, await readJsonBody(event, spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
      if (spec.auth === 'basic' && auth.method !== 'basic_password' && auth.method !== 'reverse_proxy') {
        throw new UnauthorizedError('auth method not allowed');
      }
      if ('list' in spec.reply) {
        const page = clampPage(host.settings, query as { page?: number; limit?: number });
        ctx.page = page;
        const result = (await spec.handler(ctx as never)) as Page<unknown>;
        setPaginationHeaders(headers, host.settings.server.ROOT_URL, url, page, result.total);
        return jsonResponse(200, stringifySharedBytes(result.items), headers);
      }
      const result = await spec.handler(ctx as never);
      // A stream, or a body shaped unlike the reply's schema: the handler built the answer itself.
      if (result instanceof Response) {
        if (limits) copyRateLimitHeaders(headers, result);
        return withFrameOptions(result);
      }
      if (!('schema' in spec.reply)) {
        delete headers['content-type'];
        return new FastResponse(null, { status: typeof result === 'number' ? result : spec.reply.status, headers });
      }
      return jsonResponse(spec.reply.status, stringifySharedBytes(result), headers);
    } catch (error) {
      if (leftBodyUnread(error, spec)) return bodyTooLargeResponse(host, error, headers, event);
      // A loader found an old name a rename left behind.
      if (error instanceof MovedError) return movedResponse(error, headers);
      return errorResponse(host, error, headers);
    }
  }
}

/**
 * A refusal that leaves the request body unread on the wire: the router's own (past `maxBodyBytes`), or a size
 * refusal of an upload the route streams itself (a route without a body schema: attachments, release assets).
 */
function leftBodyUnread(error: unknown, spec: AnyRouteSpec): error is HttpError | PayloadTooLargeError {
  if (error instanceof HttpError) return error.status === 413;
  return error instanceof PayloadTooLargeError && spec.body === undefined;
}

function checkScopes(spec: AnyRouteSpec, ctx: RequestBase<unknown>): void {
  if (!spec.scopes) return;
  const scopes = ctx.auth.scopes;
  if (scopes === null) return;
  const categories = typeof spec.scopes === 'function' ? spec.scopes(ctx) : spec.scopes;
  const level = spec.method === 'GET' ? 'read' : 'write';
  if (categories.every((c) => scopesGrant(scopes, c, level))) return;
  throw missingScopeError(categories, level);
}

/** The 403 for a token that lacks a scope, worded as Forgejo words it. */
export function missingScopeError(categories: readonly ScopeCategory[], level: ScopeLevel): ForbiddenError {
  return new ForbiddenError(`token does not have at least one of required scope(s): [${categories.map((c) => `${level}:${c}`).join(' ')}]`);
}

/**
 * What authentication reads of a request: its headers and query, the socket's peer and the client's address as
 * trusted proxies report it (`client-address.ts`); whoever it turns out to be is noted for the access log.
 */
export function requestCredentials(event: H3Event): CredentialSource & { remoteAddress: string | undefined } {
  const clientAddress = requestClientAddress(event);
  return {
    header: (name: string) => event.req.headers.get(name),
    query: event.url.searchParams,
    remoteAddress: peerAddress(event),
    ...(clientAddress !== undefined && { clientAddress }),
    identified: (auth) => noteActor(event, auth.actor),
  };
}

/** Go's `strconv.ParseInt(s, 10, 64)` syntax: an optional sign, then decimal digits. */
const DECIMAL_INTEGER = /^[+-]?\d+$/;
/** The magnitudes that bound int64, as 19-digit strings (compared as strings: same length, same order). */
const INT64_MAX_DIGITS = '9223372036854775807';
const INT64_MIN_DIGITS = '9223372036854775808';

/**
 * A query integer as Forgejo's form helpers read it with strconv: undefined unless it is a decimal int64 (so the
 * parameter counts as absent and the default applies). An int64 past JavaScript's safe integers is clamped to
 * them: it is past the end of anything a page or a count reaches, and stays exact from here to SQL.
 */
function parseQueryInteger(value: string): number | undefined {
  if (!DECIMAL_INTEGER.test(value)) return undefined;
  const sign = value.charCodeAt(0);
  const negative = sign === 0x2d;
  let start = negative || sign === 0x2b ? 1 : 0;
  while (start < value.length - 1 && value.charCodeAt(start) === 0x30) start++;
  const digits = value.length - start;
  if (digits > 19) return undefined;
  if (digits === 19 && value.slice(start) > (negative ? INT64_MIN_DIGITS : INT64_MAX_DIGITS)) return undefined;
  const n = Number(value);
  if (n > Number.MAX_SAFE_INTEGER) return Number.MAX_SAFE_INTEGER;
  if (n < -Number.MAX_SAFE_INTEGER) return -Number.MAX_SAFE_INTEGER;
  return n;
}

/** The spellings Go's `strconv.ParseBool` accepts; anything else leaves the parameter absent. */
const QUERY_BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['1', true], ['t', true], ['T', true], ['TRUE', true], ['true', true], ['True', true],
  ['0', false], ['f', false], ['F', false], ['FALSE', false], ['false', false], ['False', false],
]);

/**
 * Query parameters as an object under the schema's field names (matched as body fields are), with integer and
 * boolean fields converted as Forgejo's form helpers do: a malformed value is absent (the default applies). An
 * empty value (`?labels=`, what clients send for "no filter") is absent too, as Go's form helpers read it
 * (`FormString` gives "" either way, `StringsToInt64s` skips it); a required parameter sent empty is still missing.
 */
function queryObject(params: URLSearchParams, schema: TObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of params) {
    if (value === '') continue;
    const name = fieldName(schema, key);
    if (name === undefined) continue;
    const type = (schema.properties[name] as { type?: string }).type;
    if (type === 'integer') {
      const n = parseQueryInteger(value);
      if (n !== undefined) out[name] = n;
    } else if (type === 'boolean') {
      const b = QUERY_BOOLEANS.get(value);
      if (b !== undefined) out[name] = b;
    } else if (type === 'array') {
      // A repeated parameter (`status-types=read&status-types=pinned`): every value, as Go's `Form[key]`; ids
      // (`labels=3&labels=4`) as integers, as `StringsToInt64s` reads them (a malformed one stays text: 422).
      const values = (out[name] as unknown[] | undefined) ?? [];
      const items = (schema.properties[name] as { items?: { type?: string } }).items;
      values.push(items?.type === 'integer' ? (parseQueryInteger(value) ?? value) : value);
      out[name] = values;
    } else out[name] = value;
  }
  return out;
}

/**
 * The request body as JSON, read while it arrives and refused with 413 once it passes `limit` bytes (or declares
 * a longer Content-Length): what lies beyond the limit is never read, so it is never held. An empty body is an
 * empty object, as Forgejo's binder treats it.
 */
async function readJsonBody(event: H3Event, limit: number): Promise<unknown> {
  const declared = event.req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw bodyTooLarge();
  const text = (await readBody(event, limit)).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8's message may quote the body ("…" is not valid JSON), and a body can hold a secret: say only where.
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    throw new ValidationError('', position === undefined ? 'invalid JSON body' : `invalid JSON body at character ${position}`);
  }
}

/** The request body as UTF-8 text (invalid sequences read as U+FFFD), bounded as JSON bodies are. */
async function readTextBody(event: H3Event, limit: number): Promise<string> {
  const declared = event.req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw bodyTooLarge();
  return (await readBody(event, limit)).toString('utf8');
}

function bodyTooLarge(): HttpError {
  return new HttpError(413, 'request body too large');
}

const NO_BYTES = Buffer.alloc(0);

/** Node's HTTP/1 request under the event: not there in-process (`app.fetch`), nor for HTTP/2. */
function http1Request(event: H3Event): IncomingMessage | undefined {
  const req = event.runtime?.node?.req;
  return req && req.httpVersionMajor === 1 ? (req as IncomingMessage) : undefined;
}

/** The body's bytes, at most `limit` of them: from Node's request stream when served by Node, else the web one. */
export function readBody(event: H3Event, limit: number): Promise<Buffer> {
  const node = http1Request(event) as (IncomingMessage & { rawBody?: unknown }) | undefined;
  // A stream someone else already read (an embedder's body parser) is left to srvx, which knows what became of it.
  if (node && !node.readableEnded && !node.destroyed && node.rawBody === undefined) return readNodeBody(node, limit);
  const body = event.req.body;
  return body ? readWebBody(body, limit) : Promise.resolve(NO_BYTES);
}

/** How long the connection stays open after a 413 for an unread body: Go's server waits as long (rstAvoidanceDelay). */
const LINGER_MS = 500;

/**
 * The 413 for a body left unread on the wire. The connection closes after it (`Connection: close`), since the
 * rest of the body is never read; but closing a socket with unread data makes TCP send a reset, and a client
 * still busy writing sees that reset (EPIPE, ECONNRESET) instead of the answer. So, as Go's server does, the
 * answer goes out whole (its Content-Length tells the client so) and the connection closes a moment later: the
 * body stream ends after LINGER_MS, or as soon as the client hangs up.
 */
export function bodyTooLargeResponse(host: RepoHost, error: HttpError | PayloadTooLargeError, headers: ResponseHeaders, event: H3Event): Response {
  if (!http1Request(event)) return errorResponse(host, error, headers);
  headers.connection = 'close';
  headers['content-type'] = 'application/json;charset=utf-8';
  const bytes = Buffer.from(errorBody(host, error.message));
  headers['content-length'] = String(bytes.length);
  let timer: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      timer = setTimeout(() => controller.close(), LINGER_MS);
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new FastResponse(body, { status: 413, headers });
}

function readNodeBody(req: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // Stop reading: TCP holds the sender back until the connection closes after the 413 (bodyTooLargeResponse).
      req.pause();
      chunks.length = 0;
      settle(bodyTooLarge());
    };
    const onEnd = () => settle();
    // The client went away mid-body: nobody reads the answer, but it must not count as a server failure.
    const onGone = () => settle(new HttpError(400, 'request body incomplete'));
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}

async function readWebBody(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
}

/**
 * The matched route's path parameters, percent-decoded as Go's `url.PathUnescape` decodes them (`%2F` is `/`).
 * A malformed escape is the client's mistake, a BadRequestError (400), where h3's decoding throws a URIError.
 * Parameters without `%` are returned as matched, without copying.
 */
/** The parameters a route names with hyphens, under those names (the router has them with underscores). */
function withHyphenatedParams(params: Record<string, string>, hyphenated: readonly string[]): Record<string, string> {
  if (hyphenated.length === 0) return params;
  const out = { ...params };
  for (const name of hyphenated) out[name] = params[name.replaceAll('-', '_')]!;
  return out;
}

export function decodedRouterParams(event: H3Event): Record<string, string> {
  const raw = getRouterParams(event) as Record<string, string>;
  let decoded: Record<string, string> | undefined;
  for (const key in raw) {
    const value = raw[key]!;
    if (!value.includes('%')) continue;
    decoded ??= { ...raw };
    try {
      decoded[key] = decodeURIComponent(value);
    } catch {
      throw new BadRequestError(`invalid URL escape in the path: ${JSON.stringify(value)}`);
    }
  }
  return decoded ?? raw;
}

/** Response headers, lower-case names. */
export type ResponseHeaders = Record<string, string>;

/** The `{"message","url"}` error body. `challenge` adds `WWW-Authenticate` to a 401 (git clients need it). */
export function errorResponse(host: RepoHost, error: unknown, headers: ResponseHeaders = {}, options: { challenge?: boolean } = {}): Response {
  const { status, message, retryAfterSeconds, body } = errorStatus(error);
  if (status === 500) console.error('[repohost] internal error:', error);
  headers['content-type'] = 'application/json;charset=utf-8';
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  if (status === 401 && options.challenge) headers['www-authenticate'] = 'Basic realm="Gitea"';
  if (body) return jsonResponse(status, JSON.stringify(body), headers);
  return jsonResponse(status, errorBody(host, message), headers);
}

/** The `{"message","url"}` body every error answer carries. */
function errorBody(host: RepoHost, message: string): string {
  return JSON.stringify({ message, url: apiDocsUrl(host.settings) });
}

/**
 * A JSON answer (`headers`: the route's, with their content type), with its length: a length-delimited body goes out
 * in one write; without the length Node falls back to chunked encoding.
 */
export function jsonResponse(status: number, body: string | Buffer, headers: ResponseHeaders): Response {
  // Encoded once: its length is then known, where `Buffer.byteLength` scanned the text and the socket write encoded
  // it again (a twentieth of a 130 KB answer's time).
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  headers['content-length'] = String(bytes.length);
  return new FastResponse(bytes, { status, headers });
}

/** `X-Total-Count`, and a `Link` header with next/last/first/prev page URLs (as Forgejo orders them). */
export function setPaginationHeaders(headers: ResponseHeaders, rootUrl: string, url: URL, page: { page: number; limit: number }, total: number): void {
  headers['x-total-count'] = String(total);
  const lastPage = Math.max(1, Math.ceil(total / page.limit));
  const link = (p: number, rel: string) => {
    const params = new URLSearchParams(url.searchParams);
    params.set('page', String(p));
    params.sort();
    return `<${rootUrl}${url.pathname.replace(/^\//, '')}?${params.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page.page < lastPage) links.push(link(page.page + 1, 'next'), link(lastPage, 'last'));
  if (page.page > 1) links.push(link(1, 'first'), link(page.page - 1, 'prev'));
  if (links.length > 0) headers.link = links.join(',');
  headers['access-control-expose-headers'] = 'Link, X-Total-Count';
}

/** How much of a HEAD answer's body is counted for its Content-Length; a longer one goes without, as chunked. */
const HEAD_MEASURE_LIMIT = 16 * 1024 * 1024;

/**
 * An h3 app whose GET routes answer HEAD as Forgejo's do: the GET handler runs, and the answer keeps its status
 * and headers, Content-Length included, without the body. h3 alone tries GET for HEAD only when no route matches
 * HEAD, which a catch-all always does, and it drops a length srvx would have counted from the body; so every GET
 * route has a HEAD twin here (the router's, the swagger document's, git's). No HEAD route is registered otherwise,
 * so a HEAD request matches exactly what a GET to its path matches (a GET route or a catch-all): it is looked up as
 * GET, and a GET route's twin is made when a HEAD first reaches it. Registering the twins up front put a third of
 * the router's entries, and of its start-up time, into routes few requests use.
 */
export class H3WithHead extends H3 {
  private readonly headTwins = new WeakMap<H3Route, H3Route>();

  override on(method: Parameters<H3['on']>[0], route: string, handler: HTTPHandler, opts?: RouteOptions): this {
    if (method.toUpperCase() === 'HEAD') throw new Error(`HEAD ${route}: a GET route answers HEAD (H3WithHead)`);
    return super.on(method, route, handler, opts);
  }

  override '~findRoute'(event: H3Event): MatchedRoute<H3Route> | void {
    if (event.req.method !== 'HEAD') return super['~findRoute'](event);
    // h3's lookup reads the method and the path only.
    const match = super['~findRoute']({ req: { method: 'GET' }, url: event.url } as H3Event);
    if (!match || match.data.method !== 'GET') return match;
    let twin = this.headTwins.get(match.data);
    if (!twin) {
      const { route, middleware, meta, handler: get } = match.data;
      twin = { route, method: 'HEAD', middleware, meta, handler: (headEvent) => headAnswer(get(headEvent)) };
      this.headTwins.set(match.data, twin);
    }
    return { ...match, data: twin };
  }
}

/** A GET answer as HEAD sends it. Only HEAD requests come here, so web Headers are affordable. */
async function headAnswer(answer: unknown): Promise<unknown> {
  const response = await answer;
  if (!(response instanceof Response) || response.headers.has('content-length')) return response;
  const body = response.body;
  if (body === null) return response;
  const reader = body.getReader();
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += (value as Uint8Array).byteLength;
    if (length > HEAD_MEASURE_LIMIT) {
      reader.cancel().catch(() => {});
      return new FastResponse(null, { status: response.status, statusText: response.statusText, headers: response.headers });
    }
  }
  const headers = new Headers(response.headers);
  headers.set('content-length', String(length));
  return new FastResponse(null, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The answer for what h3 refuses by itself, in the API's error format: a path that is not valid percent-encoding
 * (400, before any route runs), a path no route matches (404), an error no handler caught (500). For an `H3`
 * `onError` hook.
 */
export function unroutedErrorResponse(host: RepoHost, error: HTTPError, event: H3Event): Response {
  const path = event.url.pathname;
  const headers = path === '/api' || path.startsWith('/api/') ? apiResponseHeaders() : {};
  let cause: unknown;
  if (error.status === 404) cause = new NotFoundError();
  else if (error.status === 400 && !isDecodablePath(path)) cause = new BadRequestError('invalid URL escape in the request path');
  else if (error.status < 500) cause = new HttpError(error.status, error.message);
  else cause = error.cause ?? error;
  return errorResponse(host, cause, headers);
}

function isDecodablePath(path: string): boolean {
  try {
    decodeURI(path);
    return true;
  } catch {
    return false;
  }
}
