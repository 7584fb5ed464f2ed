import type { H3Event } from 'h3';
import { RateLimitService, TooManyRequestsError, UnauthorizedError, addressCaller, isSiteAdmin, rateLimitCaller, type Actor, type RateLimitCaller, type RateLimitResource, type RateLimitVerdict, type RepoHost } from '@repohost/core';
import { requestClientAddress } from './client-address.js';

/** Response headers, lower-case names. */
type Headers = Record<string, string>;

const ofHost = new WeakMap<RepoHost, RequestLimits>();

/** Callers kept per account and per address (emptied when full: they are only made again). */
const MAX_CALLERS = 10_000;

/**
 * API rate limits on the request path (`[api.ratelimit]`; the counting is core's `RateLimitService`). Built only
 * when they are enabled, so the path pays one check of `undefined` when they are not.
 *
 * Who a call counts for, as GitHub decides: a signed-in account by its id, whatever it signed in with (every token,
 * OAuth2 grant and its password share one count; `Sudo` counts for the administrator who sent it); a workflow task's
 * token for its repository; anonymous calls, and calls whose credentials were refused, for the client's address
 * (`client-address.ts`, behind trusted proxies the forwarded one). Site administrators are exempt unless
 * `EXEMPT_SITE_ADMINS` is false, and so is the system actor: an exempt call is neither counted nor given headers.
 */
export class RequestLimits {
  private readonly service: RateLimitService;
  private readonly exemptAdmins: boolean;
  private readonly users = new Map<number, RateLimitCaller>();
  private readonly addresses = new Map<string | undefined, RateLimitCaller>();

  private constructor(host: RepoHost) {
    this.service = host.service(RateLimitService);
    this.exemptAdmins = host.settings['api.ratelimit'].EXEMPT_SITE_ADMINS;
  }

  /** The limits of `host`'s requests, or undefined when they are off (made once per host). */
  static of(host: RepoHost): RequestLimits | undefined {
    if (!host.settings['api.ratelimit'].ENABLED) return undefined;
    let limits = ofHost.get(host);
    if (limits === undefined) ofHost.set(host, (limits = new RequestLimits(host)));
    return limits;
  }

  /** Who `actor`'s calls count for; undefined when they are not counted. */
  callerOf(actor: Actor, event: H3Event): RateLimitCaller | undefined {
    if (actor.kind === 'anonymous') {
      const address = requestClientAddress(event);
      let caller = this.addresses.get(address);
      if (caller === undefined) {
        if (this.addresses.size >= MAX_CALLERS) this.addresses.clear();
        this.addresses.set(address, (caller = addressCaller(address)));
      }
      return caller;
    }
    if (actor.kind !== 'user') return undefined;
    if (actor.task) return rateLimitCaller(`repo:${actor.task.repoId}`, true, `repository ID ${actor.task.repoId}`);
    if (this.exemptAdmins && isSiteAdmin(actor)) return undefined;
    const id = actor.user.id;
    let caller = this.users.get(id);
    if (caller === undefined) {
      if (this.users.size >= MAX_CALLERS) this.users.clear();
      this.users.set(id, (caller = rateLimitCaller(`user:${id}`, true, `user ID ${id}`)));
    }
    return caller;
  }

  /**
   * Counts a call of `actor` against `resource`: sets the `X-RateLimit-*` headers in `headers` and throws the 429
   * (`Retry-After`, GitHub's wording) when the caller's limit is spent. Synchronous while this process holds calls
   * of the caller's window; a promise when it has to claim more from the database.
   */
  count(resource: RateLimitResource, actor: Actor, event: H3Event, headers: Headers): RateLimitVerdict | undefined | Promise<RateLimitVerdict | undefined> {
    const caller = this.callerOf(actor, event);
    if (caller === undefined) return undefined;
    const verdict = this.service.take(resource, caller);
    if (verdict instanceof Promise) return verdict.then((v) => settle(v, caller, headers));
    return settle(verdict, caller, headers);
  }

  /**
   * `authenticate`'s outcome counted: a call with refused credentials (401) counts for the client's address, as an
   * anonymous one, so guessing tokens costs the guesser's budget (a spent one answers 429 instead of 401).
   */
  async countRefused(resource: RateLimitResource, error: unknown, event: H3Event, headers: Headers): Promise<void> {
    if (!(error instanceof UnauthorizedError)) return;
    await this.count(resource, { kind: 'anonymous' }, event, headers);
  }
}

function settle(verdict: RateLimitVerdict | undefined, caller: RateLimitCaller, headers: Headers): RateLimitVerdict | undefined {
  if (verdict === undefined) return undefined;
  setRateLimitHeaders(headers, verdict);
  if (!verdict.allowed) throw rateLimitExceeded(verdict, caller);
  return verdict;
}

/** GitHub's five headers. */
export function setRateLimitHeaders(headers: Headers, verdict: RateLimitVerdict): void {
  headers['x-ratelimit-limit'] = String(verdict.limit);
  headers['x-ratelimit-remaining'] = String(verdict.remaining);
  headers['x-ratelimit-reset'] = String(verdict.reset);
  headers['x-ratelimit-used'] = String(verdict.used);
  headers['x-ratelimit-resource'] = verdict.resource;
}

const HEADER_NAMES = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used', 'x-ratelimit-resource'] as const;

/** The headers `headers` holds, onto a response a handler built itself. */
export function copyRateLimitHeaders(headers: Headers, response: Response): void {
  if (headers['x-ratelimit-limit'] === undefined) return;
  try {
    for (const name of HEADER_NAMES) response.headers.set(name, headers[name]!);
  } catch {
    // A response with immutable headers (one fetched from elsewhere) goes out as it is.
  }
}

/** The 429, worded as GitHub's: "API rate limit exceeded for user ID 12." (git: "Git rate limit …"). */
export function rateLimitExceeded(verdict: RateLimitVerdict, caller: RateLimitCaller): TooManyRequestsError {
  const what = verdict.resource === 'git' ? 'Git rate limit' : 'API rate limit';
  return new TooManyRequestsError(`${what} exceeded for ${caller.label}.`, verdict.retryAfter);
}
