import type { H3, H3Event } from 'h3';
import { getRouterParams } from 'h3';
import { FastResponse } from 'srvx';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import {
  API_PREFIX,
  ForbiddenError,
  UnauthorizedError,
  ValidationError,
  apiDocsUrl,
  clampPage,
  fieldName,
  parseInput,
  scopesGrant,
  type Page,
  type RepoHost,
  type ScopeCategory,
  type ScopeLevel,
} from '@repohost/core';
import { applySudo, authenticate, QUERY_TOKEN_WARNING } from '../auth.js';
import { errorStatus, HttpError } from './errors.js';
import type { AnyRouteSpec, Loader, PathParams, RegisteredRoute, Reply, RequestBase, RouteSpec } from './contract.js';

/** `page` and `limit`, as every list takes them. */
export const PagingQuery = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results' })),
});

const MAX_JSON_BODY = 10 * 1024 * 1024;

/**
 * Routes under a path prefix that share what they load. A group's loader resolves the resource its path names
 * and the caller's access to it, once per request, before any handler runs; a resource the caller may not see
 * ends the request with 404 there. Handlers receive what the loaders returned.
 */
export class RouteGroup<Prefix extends string, Loaded> {
  constructor(
    protected readonly table: RouteTable,
    readonly prefix: Prefix,
    private readonly loaders: readonly Loader[],
  ) {}

  /** A group below this one, loading more (`repos.nest('/issues/{index}', loadIssue)`). */
  nest<const Sub extends string, More extends object>(
    path: Sub,
    load: (ctx: RequestBase<PathParams<`${Prefix}${Sub}`>> & Loaded) => Promise<More>,
  ): RouteGroup<`${Prefix}${Sub}`, Loaded & More> {
    return new RouteGroup(this.table, `${this.prefix}${path}`, [...this.loaders, load as unknown as Loader]);
  }

  add<
    const Path extends string,
    Q extends TObject | undefined = undefined,
    B extends TSchema | undefined = undefined,
    const R extends Reply = Reply,
  >(spec: RouteSpec<Path, PathParams<`${Prefix}${Path}`>, Loaded, Q, B, R>): void {
    this.table.register({ spec: spec as unknown as AnyRouteSpec, path: `${this.prefix}${spec.path}`, loaders: this.loaders });
  }
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

  /** A top-level group (`router.group('/users/{username}', loadUser)`). */
  group<const Prefix extends string, Loaded extends object>(
    prefix: Prefix,
    load: (ctx: RequestBase<PathParams<Prefix>>) => Promise<Loaded>,
  ): RouteGroup<Prefix, Loaded> {
    return new RouteGroup(this.table, prefix, [load as unknown as Loader]);
  }
}

/** Mounts routes on the h3 app and runs a request through its route: authenticate, load, check, parse, handle. */
export class RouteTable {
  readonly routes: RegisteredRoute[] = [];

  constructor(
    private readonly app: H3,
    private readonly host: RepoHost,
  ) {}

  register(route: RegisteredRoute): void {
    const { spec } = route;
    this.routes.push(route);
    const query = 'list' in spec.reply ? Type.Object({ ...PagingQuery.properties, ...spec.query?.properties }) : spec.query;
    const h3Path = API_PREFIX + route.path.replace(/\{(\w+)\}/g, ':$1');
    this.app.on(spec.method, h3Path, (event) => this.handle(route, query, event));
  }

  private async handle({ spec, loaders }: RegisteredRoute, querySchema: TObject | undefined, event: H3Event): Promise<Response> {
    const host = this.host;
    // A plain record and srvx's FastResponse: web Headers/Response objects cost more than the route itself.
    const headers: ResponseHeaders = { 'content-type': 'application/json;charset=utf-8' };
    try {
      const url = event.url;
      // Forgejo warns about a query token whatever becomes of it (rejected, disabled, or overridden by a header).
      if (url.searchParams.get('token') || url.searchParams.get('access_token')) headers.warning = QUERY_TOKEN_WARNING;
      let auth = await authenticate(host, requestCredentials(event), { allowReverseProxy: true });
      auth = await applySudo(host, auth, event.req.headers.get('sudo') || url.searchParams.get('sudo'));
      if (spec.auth === 'token' && auth.actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
      const ctx: Record<string, unknown> & RequestBase<Record<string, string>> = {
        event,
        host,
        auth,
        actor: auth.actor,
        params: getRouterParams(event, { decode: true }) as Record<string, string>,
        view: { viewer: auth.actor, settings: host.settings },
      };
      for (const load of loaders) Object.assign(ctx, await load(ctx));
      checkScopes(spec, ctx);
      const query = querySchema ? parseInput(querySchema, queryObject(url.searchParams, querySchema)) : {};
      ctx.query = query;
      if (spec.body) ctx.body = parseInput(spec.body, await readJsonBody(event));
      if (spec.auth === 'basic' && auth.method !== 'basic_password' && auth.method !== 'reverse_proxy') {
        throw new UnauthorizedError('auth method not allowed');
      }
      if ('list' in spec.reply) {
        const page = clampPage(host.settings, query as { page?: number; limit?: number });
        ctx.page = page;
        const result = (await spec.handler(ctx as never)) as Page<unknown>;
        setPaginationHeaders(headers, host.settings.server.ROOT_URL, url, page, result.total);
        return jsonResponse(200, JSON.stringify(result.items), headers);
      }
      const result = await spec.handler(ctx as never);
      if (spec.reply.status === 204) {
        delete headers['content-type'];
        return new FastResponse(null, { status: 204, headers });
      }
      return jsonResponse(spec.reply.status, JSON.stringify(result), headers);
    } catch (error) {
      return errorResponse(host, error, headers);
    }
  }
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

export function requestCredentials(event: H3Event) {
  return {
    header: (name: string) => event.req.headers.get(name),
    query: event.url.searchParams,
    remoteAddress: (event.req as { ip?: string }).ip,
  };
}

/**
 * Query parameters as an object under the schema's field names (matched as body fields are), with integer and
 * boolean fields converted as Forgejo's form helpers do: a malformed number is absent (the default applies).
 */
function queryObject(params: URLSearchParams, schema: TObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of params) {
    const name = fieldName(schema, key);
    if (name === undefined) continue;
    const type = (schema.properties[name] as { type?: string }).type;
    if (type === 'integer') {
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
  const { status, message, retryAfterSeconds } = errorStatus(error);
  if (status === 500) console.error('[repohost] internal error:', error);
  headers['content-type'] = 'application/json;charset=utf-8';
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  if (status === 401 && options.challenge) headers['www-authenticate'] = 'Basic realm="Gitea"';
  return jsonResponse(status, JSON.stringify({ message, url: apiDocsUrl(host.settings) }), headers);
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
