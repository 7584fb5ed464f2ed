import type { H3, H3Event } from 'h3';
import { getRouterParams } from 'h3';
import { FastResponse } from 'srvx';
import type { TObject, TSchema, Static } from '@sinclair/typebox';
import {
  parseInput,
  scopesGrant,
  ValidationError,
  UnauthorizedError,
  ForbiddenError,
  type Actor,
  type RepoHost,
  type ScopeCategory,
  type ScopeLevel,
} from '@repohost/core';
import { applySudo, authenticate, QUERY_TOKEN_WARNING, type Authentication } from '../auth.js';
import { errorStatus, HttpError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseSpec {
  description: string;
  schema?: TSchema;
  /** Sent as a list with `X-Total-Count` and `Link`. */
  paginated?: boolean;
}

/** Standard error responses, referenced by name in the OpenAPI document. */
export type ErrorResponseName = 'validationError' | 'error' | 'forbidden' | 'notFound' | 'unauthorized' | 'conflict';

export interface RouteSpec<Q extends TObject | undefined, B extends TSchema | undefined> {
  method: HttpMethod;
  /** Path under /api/v1 in OpenAPI form: `/users/{username}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /**
   * Token scope categories the route needs, all of them; the level follows the method (GET reads, others
   * write). A function decides per request. Omitted: no scope needed.
   */
  scopes?: ScopeCategory[] | ((ctx: RequestContext<Record<string, never>, unknown>) => ScopeCategory[] | Promise<ScopeCategory[]>);
  /** `token`: any signed-in actor; `basic`: password basic auth (or reverse proxy); default: anonymous allowed. */
  auth?: 'token' | 'basic';
  query?: Q;
  body?: B;
  success: { status: 200 | 201 | 204; response: ResponseSpec };
  errors?: ErrorResponseName[];
  handler(ctx: RequestContext<Q extends TObject ? Static<Q> : Record<string, never>, B extends TSchema ? Static<B> : undefined>): Promise<unknown>;
}

export interface RequestContext<Q, B> {
  readonly event: H3Event;
  readonly host: RepoHost;
  readonly actor: Actor;
  readonly auth: Authentication;
  readonly params: Record<string, string>;
  readonly query: Q;
  readonly body: B;
  /** Sets `X-Total-Count` and `Link` for a page of a list. */
  paginate(page: { page: number; limit: number }, total: number): void;
}

/** The description of every route, kept for the OpenAPI document. */
export type AnyRoute = RouteSpec<TObject | undefined, TSchema | undefined>;

const MAX_JSON_BODY = 10 * 1024 * 1024;

/** Registers API routes on an h3 app and keeps their descriptions. */
export class ApiRouter {
  readonly routes: AnyRoute[] = [];

  constructor(
    private readonly app: H3,
    private readonly host: RepoHost,
    private readonly prefix = '/api/v1',
  ) {}

  add<Q extends TObject | undefined = undefined, B extends TSchema | undefined = undefined>(spec: RouteSpec<Q, B>): void {
    this.routes.push(spec as unknown as AnyRoute);
    const h3Path = this.prefix + spec.path.replace(/\{(\w+)\}/g, ':$1');
    this.app.on(spec.method, h3Path, (event) => this.handle(spec as unknown as AnyRoute, event));
  }

  private async handle(spec: AnyRoute, event: H3Event): Promise<Response> {
    // A plain record and srvx's FastResponse: web Headers/Response objects cost more than the route itself.
    const headers: ResponseHeaders = { 'content-type': 'application/json;charset=utf-8' };
    try {
      const url = event.url;
      // Forgejo warns about a query token whatever becomes of it (rejected, disabled, or overridden by a header).
      if (url.searchParams.get('token') || url.searchParams.get('access_token')) headers.warning = QUERY_TOKEN_WARNING;
      let auth = await authenticate(this.host, requestCredentials(event), { allowReverseProxy: true });
      auth = await applySudo(this.host, auth, event.req.headers.get('sudo') || url.searchParams.get('sudo'));
      if (spec.auth === 'token' && auth.actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
      const params = getRouterParams(event, { decode: true }) as Record<string, string>;
      const ctx: RequestContext<Record<string, unknown>, unknown> = {
        event,
        host: this.host,
        actor: auth.actor,
        auth,
        params,
        query: spec.query ? parseInput(spec.query, queryObject(url.searchParams, spec.query)) : {},
        body: undefined,
        paginate: (page, total) => setPaginationHeaders(headers, this.host.settings.server.ROOT_URL, url, page, total),
      };
      await checkScopes(spec, ctx as RequestContext<Record<string, never>, unknown>);
      if (spec.body) (ctx as { body: unknown }).body = parseInput(spec.body, await readJsonBody(event));
      if (spec.auth === 'basic' && auth.method !== 'basic_password' && auth.method !== 'reverse_proxy') {
        throw new UnauthorizedError('auth method not allowed');
      }
      const result = await spec.handler(ctx as never);
      if (spec.success.status === 204) {
        delete headers['content-type'];
        return new FastResponse(null, { status: 204, headers });
      }
      return jsonResponse(spec.success.status, JSON.stringify(result), headers);
    } catch (error) {
      return errorResponse(this.host, error, headers);
    }
  }
}

async function checkScopes(spec: AnyRoute, ctx: RequestContext<Record<string, never>, unknown>): Promise<void> {
  if (!spec.scopes) return;
  // A per-request decision runs for every caller: it may also check access first, as Forgejo's middleware does.
  const categories = typeof spec.scopes === 'function' ? await spec.scopes(ctx) : spec.scopes;
  if (ctx.auth.scopes === null) return;
  const level = spec.method === 'GET' ? 'read' : 'write';
  const scopes = ctx.auth.scopes;
  if (categories.every((c) => scopesGrant(scopes, c, level))) return;
  throw missingScopeError(categories, level);
}

/** The 403 for a token that lacks a scope, worded as Forgejo words it. */
export function missingScopeError(categories: readonly ScopeCategory[], level: ScopeLevel): ForbiddenError {
  return new ForbiddenError(`token does not have at least one of required scope(s): [${categories.map((c) => `${level}:${c}`).join(' ')}]`);
}

export function requestCredentials(event: H3Event) {
  return {
    header: (name: string) => event.req.headers.get(name),
    query: event.url.searchParams,
    remoteAddress: (event.req as { ip?: string }).ip,
  };
}

/** Query parameters as an object, with numeric and boolean schema fields converted (invalid numbers are dropped). */
function queryObject(params: URLSearchParams, schema: TObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of params) {
    const prop = Object.entries(schema.properties).find(([name]) => name.toLowerCase() === key.toLowerCase());
    if (!prop) continue;
    const [name, propSchema] = prop;
    const type = (propSchema as { type?: string }).type;
    if (type === 'integer') {
      // Forgejo falls back to the default on a non-number page or limit rather than failing.
      if (/^-?\d+$/.test(value)) out[name] = Number.parseInt(value, 10);
    } else if (type === 'boolean') {
      out[name] = value === 'true' || value === '1';
    } else out[name] = value;
  }
  return out;
}

async function readJsonBody(event: H3Event): Promise<unknown> {
  const length = Number(event.req.headers.get('content-length') ?? '0');
  if (length > MAX_JSON_BODY) throw new HttpError(413, 'request body too large');
  const text = await event.req.text();
  if (text.length > MAX_JSON_BODY) throw new HttpError(413, 'request body too large');
  // An empty body is an empty object, as Forgejo's binder treats it.
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError('', `invalid JSON body: ${(error as Error).message}`);
  }
}

/** Response headers, lower-case names. */
export type ResponseHeaders = Record<string, string>;

/** The `{"message","url"}` error body. `challenge` adds `WWW-Authenticate` to a 401 (git clients need it). */
export function errorResponse(host: RepoHost, error: unknown, headers: ResponseHeaders = {}, options: { challenge?: boolean } = {}): Response {
  const { status, message } = errorStatus(error);
  if (status === 500) console.error('[repohost] internal error:', error);
  headers['content-type'] = 'application/json;charset=utf-8';
  if (status === 401 && options.challenge) headers['www-authenticate'] = 'Basic realm="Gitea"';
  const body = JSON.stringify({ message, url: `${host.settings.server.ROOT_URL}api/swagger` });
  return jsonResponse(status, body, headers);
}

/** A length-delimited body goes out in one write; without the length Node falls back to chunked encoding. */
function jsonResponse(status: number, body: string, headers: ResponseHeaders): Response {
  headers['content-length'] = String(Buffer.byteLength(body));
  return new FastResponse(body, { status, headers });
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
