/**
 * The types a route is declared with. A route's path gives its `params`, its `query` and `body` schemas give
 * typed input, and its `reply` gives the type its handler must return, so the compiler checks each route
 * against its own declaration.
 */
import type { H3Event } from 'h3';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Actor, ApiView, Page, PageRequest, RepoHost, RepoHostErrorKind, ScopeCategory } from '@repohost/core';
import type { Authentication } from '../auth.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type ParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? { readonly [K in Name]: string } & ParamsOf<Rest> : unknown;
/** `'/repos/{owner}/{repo}'` → `{ owner: string; repo: string }`. */
export type PathParams<P extends string> = { readonly [K in keyof ParamsOf<P>]: ParamsOf<P>[K] };

/** The statuses of a success without a body. */
export type NoBodyStatus = 201 | 204;

/** What a route answers with on success. */
export type Reply =
  /** One JSON document of `schema`. */
  | { readonly status: 200 | 201 | 202 | 205; readonly description: string; readonly schema: TSchema }
  /**
   * No body: a 204, or a 201 for a creation that answers nothing. `or` is the other status the handler may answer by
   * returning it (Forgejo's create-or-update operations: 201 when created, 204 when updated).
   */
  | { readonly status: NoBodyStatus; readonly description: string; readonly or?: { readonly status: NoBodyStatus; readonly description: string } }
  /** A page of a list of `list` items: the router reads `page`/`limit`, sends `X-Total-Count` and `Link`. */
  | { readonly status: 200; readonly description: string; readonly list: TSchema }
  /** Bytes the handler streams itself (archives): it returns a `Response` of one of the `produces` types. */
  | { readonly status: 200; readonly description: string; readonly produces: readonly string[] };

/** What a handler returns for a reply: the schema's type, a page of items, or nothing (or the status it answers). */
export type ReplyValue<R extends Reply> = R extends { produces: readonly string[] }
  ? Response
  : R extends { list: infer S extends TSchema }
  ? Page<Static<S>>
  : R extends { schema: infer S extends TSchema }
    ? Static<S>
    : void | NoBodyStatus;

/** What every stage of a request sees: who asks, the path parameters, and how responses are shaped for them. */
export interface RequestBase<Params> {
  readonly event: H3Event;
  readonly host: RepoHost;
  readonly auth: Authentication;
  readonly actor: Actor;
  readonly params: Params;
  /** The viewer and settings that converters (`toApiX`) take. */
  readonly view: ApiView;
  /** Headers the answer will carry (lower-case names): a handler may add some (`X-Total-Count` on an object reply). */
  readonly responseHeaders: Record<string, string>;
}

/** What a handler sees: the request, what its groups loaded, and its parsed input. */
export type HandlerContext<Params, Loaded, Q, B, R extends Reply> = RequestBase<Params> &
  Loaded & {
    readonly query: Q extends TObject ? Static<Q> : Record<string, never>;
    readonly body: B extends TSchema ? Static<B> : undefined;
  } & (R extends { list: TSchema } ? { readonly page: PageRequest } : unknown);

export interface RouteSpec<Path extends string, Params, Loaded, Q extends TObject | undefined, B extends TSchema | undefined, R extends Reply> {
  method: HttpMethod;
  /** Path under its group, in OpenAPI form: `/tokens/{token}`; `''` for the group's own path. */
  path: Path;
  operationId: string;
  summary: string;
  /** The operation's tag in the OpenAPI document; by default its group's. */
  tag?: string;
  /**
   * `token`: a signed-in actor; `basic`: password basic auth (or reverse proxy); by default its group's, else anyone
   * (anonymous allowed).
   */
  auth?: 'token' | 'basic';
  /**
   * Token scope categories the route needs, all of them; the level follows the method (GET reads, others write).
   * A function decides per request, from what the groups loaded. Omitted: its group's, else no scope needed.
   */
  scopes?: readonly ScopeCategory[] | ((ctx: RequestBase<Params> & Loaded) => readonly ScopeCategory[]);
  query?: Q;
  body?: B;
  /**
   * Largest request body accepted, in bytes (default 10 MiB): past it the request ends with 413 while the body is
   * still arriving, so nothing beyond the limit is buffered. Routes that take uploads set their own.
   */
  maxBodyBytes?: number;
  /** `text/plain`: the body is handed over as the text it is (its schema a string), not parsed as JSON. */
  bodyType?: 'application/json' | 'text/plain';
  reply: R;
  /** Error responses to document, besides the success. */
  errors?: readonly RepoHostErrorKind[];
  /**
   * Returns the reply's value; or a `Response` of its own, sent as it is, for an answer Forgejo shapes unlike the
   * others (`{"ok": false, …}`, `{"invalidTopics": …}`).
   */
  handler(ctx: HandlerContext<Params, Loaded, Q, B, R>): Promise<ReplyValue<R> | Response>;
}

/** A route with its types erased, as the router and the OpenAPI builder keep it. */
export type AnyRouteSpec = RouteSpec<string, any, any, TObject | undefined, TSchema | undefined, Reply>;

/**
 * A check a group makes of the caller before it loads anything more (Forgejo's `reqToken`, `reqAdmin`, …: the ones
 * in `guards.ts`): it throws to refuse (401, 403, or 404 for what is not there).
 */
export type Guard<Ctx> = (ctx: Ctx) => void | Promise<void>;

/** What a group says of all its routes (and of the groups nested in it), unless a route or a nested group says otherwise. */
export interface GroupOptions<Ctx> {
  /** The routes' tag in the OpenAPI document. */
  tag?: string;
  /** The routes' `auth` (see RouteSpec). */
  auth?: 'token' | 'basic';
  /** The token scope categories the routes need (see RouteSpec). */
  scopes?: readonly ScopeCategory[];
  /**
   * Checks the caller must pass, in order, after the enclosing groups loaded and before this group loads: a caller
   * they refuse learns nothing of what this group would load, nor of the route's input.
   */
  guard?: Guard<Ctx> | readonly Guard<Ctx>[];
}

/** A registered route: its declaration (its group's defaults applied), its full path under the API prefix, and the loaders of its groups. */
export interface RegisteredRoute {
  readonly spec: AnyRouteSpec & { readonly tag: string };
  /** OpenAPI form, without the API prefix: `/users/{username}/tokens/{token}`. */
  readonly path: string;
  readonly loaders: readonly Loader[];
}

/** A group's loader: resolves what the group's path names (and checks the caller may see it). */
export type Loader = (ctx: RequestBase<any> & Record<string, unknown>) => Promise<object>;
