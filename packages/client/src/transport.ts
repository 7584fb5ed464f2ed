/**
 * How the client reaches a server: the platform's `fetch`, the API root, credentials, and reading answers. The
 * generated operations (`generated.ts`) take a `Transport` first; `RepoHostClient` binds them to one.
 */
import { errorFromResponse } from './errors.js';

/** How calls authenticate. */
export type Credentials =
  /** An access token (`Authorization: token …`), as Forgejo's tokens are sent. */
  | { readonly token: string }
  /**
   * A user name and password (`Authorization: Basic …`); `otp` is the current TOTP code of an account with
   * two-factor authentication (sent as `X-Forgejo-OTP` and `X-Gitea-OTP`), a string or a function asked on every call.
   */
  | { readonly basic: { readonly username: string; readonly password: string; readonly otp?: string | (() => string) } }
  /** An OAuth2 access token (`Authorization: Bearer …`). */
  | { readonly bearer: string };

export interface ClientOptions {
  /** The server's root URL (`http://localhost:3000/`), or its API root (`…/api/v1`). */
  readonly url: string | URL;
  readonly auth?: Credentials;
  /** A site administrator's calls made as this user (`Sudo` header). */
  readonly sudo?: string;
  /** Headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use; the platform's by default. */
  readonly fetch?: typeof fetch;
}

/** A request body as `fetch` takes it (`BodyInit`, which Node's types do not name globally). */
export type RequestBody = NonNullable<RequestInit['body']>;

/** What a single call may add. */
export interface CallOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** This call made as this user (`Sudo`), overriding the client's. */
  readonly sudo?: string;
  /** A request body the operation does not declare: `FormData` for the attachment uploads (`attachment` field). */
  readonly body?: RequestBody;
}

/** A query value: lists are sent as repeated parameters (`labels=a&labels=b`). */
type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** One call as the generated operations describe it. */
export interface CallRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under the API root, already encoded: `/repos/alice/demo`. */
  readonly path: string;
  readonly query?: object | undefined;
  readonly json?: unknown;
  readonly text?: string;
  readonly options?: CallOptions | undefined;
}

/** A page of a list: its items, the total the server counted (`X-Total-Count`) and the next page, if any (`Link`). */
export interface Page<T> {
  readonly items: T[];
  readonly total: number | undefined;
  readonly page: number;
  readonly next: number | undefined;
}

export interface Transport {
  /** The API root, without a trailing slash: `http://localhost:3000/api/v1`. */
  readonly apiUrl: string;
  /** Sends a call and answers its response, throwing an `ApiError` for a status of 400 or more. */
  send(request: CallRequest): Promise<Response>;
  /** A call answering JSON. */
  json<T>(request: CallRequest): Promise<T>;
  /** A call answering no body. */
  empty(request: CallRequest): Promise<void>;
  /** A call answering bytes or text (archives, raw files, diffs): the response, its body unread. */
  raw(request: CallRequest): Promise<Response>;
  /** One page of a list call. */
  page<T>(request: CallRequest): Promise<Page<T>>;
}

/** The API root of a server's URL: `http://h/` → `http://h/api/v1`; an URL already ending in `/api/v1` stays. */
export function apiRoot(url: string | URL): string {
  const text = String(url).replace(/\/+$/, '');
  return /\/api\/v1$/.test(text) ? text : `${text}/api/v1`;
}

/** A path parameter as one path segment. */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** A path parameter that is a file path (`{filepath}`): its slashes kept. */
export function filePath(value: string | number): string {
  return String(value).split('/').map(encodeURIComponent).join('/');
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as [string, QueryValue][]) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function authHeaders(auth: Credentials | undefined, headers: Record<string, string>): void {
  if (!auth) return;
  if ('token' in auth) headers.authorization = `token ${auth.token}`;
  else if ('bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`;
  else {
    headers.authorization = `Basic ${base64(`${auth.basic.username}:${auth.basic.password}`)}`;
    const otp = typeof auth.basic.otp === 'function' ? auth.basic.otp() : auth.basic.otp;
    // Forgejo reads either header; Gitea only its own.
    if (otp) headers['x-forgejo-otp'] = headers['x-gitea-otp'] = otp;
  }
}

/** The page number `rel="next"` of a `Link` header names, if any. */
export function nextPage(link: string | null): number | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(part);
    if (!match) continue;
    const page = Number(new URL(match[1]!, 'http://x/').searchParams.get('page'));
    return Number.isInteger(page) && page > 0 ? page : undefined;
  }
  return undefined;
}

/** A transport over `fetch` for these options. */
export function createTransport(options: ClientOptions): Transport {
  const apiUrl = apiRoot(options.url);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  const send = async (request: CallRequest): Promise<Response> => {
    const call = request.options;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    authHeaders(options.auth, headers);
    const sudo = call?.sudo ?? options.sudo;
    if (sudo) headers.sudo = sudo;
    let body: RequestBody | undefined;
    if (call?.body !== undefined) body = call.body;
    else if (request.text !== undefined) {
      body = request.text;
      headers['content-type'] = 'text/plain;charset=utf-8';
    } else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, call?.headers);
    const init: RequestInit = { method: request.method, headers };
    if (body !== undefined) init.body = body;
    if (call?.signal) init.signal = call.signal;
    const response = await doFetch(`${apiUrl}${request.path}${queryString(request.query)}`, init);
    if (response.status >= 400) throw await errorFromResponse(response, request.method, request.path);
    return response;
  };

  const json = async <T>(request: CallRequest): Promise<T> => {
    const response = await send(request);
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };

  return {
    apiUrl,
    send,
    json,
    async empty(request) {
      const response = await send(request);
      await response.body?.cancel();
    },
    raw: send,
    async page<T>(request: CallRequest): Promise<Page<T>> {
      const response = await send(request);
      const text = await response.text();
      const items = (text === '' ? [] : JSON.parse(text)) as T[];
      const totalHeader = response.headers.get('x-total-count');
      const total = totalHeader === null ? undefined : Number(totalHeader);
      const asked = Number((request.query as { page?: unknown } | undefined)?.page);
      return { items, total, page: Number.isInteger(asked) && asked > 0 ? asked : 1, next: nextPage(response.headers.get('link')) };
    },
  };
}

/**
 * A list call: `await` it for the page it asks for (an array), or iterate it (`for await`) for every item of every
 * page from there on, following the `Link` header's next page. `page()` and `pages()` give the pages with their
 * `X-Total-Count`.
 */
export interface PageRequest<T> extends PromiseLike<T[]>, AsyncIterable<T> {
  /** The page asked for, with the total and the next page number. */
  page(): Promise<Page<T>>;
  /** Every page from the one asked for, following `Link`. */
  pages(): AsyncIterableIterator<Page<T>>;
  /** Every item of every page, in one array. */
  all(): Promise<T[]>;
}

/** The `PageRequest` of a list call (the generated list operations return one). */
export function pageRequest<T>(transport: Transport, request: CallRequest): PageRequest<T> {
  let first: Promise<Page<T>> | undefined;
  const page = () => (first ??= transport.page<T>(request));
  async function* pages(): AsyncIterableIterator<Page<T>> {
    let current = await transport.page<T>(request);
    const seen = new Set<number>([current.page]);
    for (;;) {
      yield current;
      // Stop at the last page, and at an empty one or a page seen before (a server whose links go round).
      if (current.next === undefined || current.items.length === 0 || seen.has(current.next)) return;
      seen.add(current.next);
      current = await transport.page<T>({ ...request, query: { ...request.query, page: current.next } });
    }
  }
  async function* items(): AsyncIterableIterator<T> {
    for await (const p of pages()) yield* p.items;
  }
  return {
    page,
    pages,
    async all() {
      const out: T[] = [];
      for await (const item of items()) out.push(item);
      return out;
    },
    then(onFulfilled, onRejected) {
      return page().then((p) => p.items).then(onFulfilled, onRejected);
    },
    [Symbol.asyncIterator]: items,
  };
}
