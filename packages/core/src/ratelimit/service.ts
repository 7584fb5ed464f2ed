import type { CoreContext } from '../context.js';
import { BoundedMap } from '../bounded-map.js';
import { networkOf } from '../security/index.js';
import { nowUnix } from '../storage/index.js';
import { RateLimitStore, type RateLimitClaim } from './store.js';

/** What is counted apart, as GitHub names its resources: the API, its searches, and git over HTTP. */
export type RateLimitResource = 'core' | 'search' | 'git';

/**
 * Who a call counts for (`rateLimitCaller`). `key` names the caller among every other (`user:12`, `repo:7` for a
 * workflow task, `ip:192.0.2.7`); `authenticated` picks the limit; `label` is how a refusal names it ("user ID 12");
 * `counters` are its counters' keys, one per resource, made once (a caller may be kept and used for many calls).
 */
export interface RateLimitCaller {
  readonly key: string;
  readonly authenticated: boolean;
  readonly label: string;
  readonly counters: Readonly<Record<RateLimitResource, string>>;
}

/** A caller, with its counters' keys. */
export function rateLimitCaller(key: string, authenticated: boolean, label: string): RateLimitCaller {
  return { key, authenticated, label, counters: { core: `core:${key}`, search: `search:${key}`, git: `git:${key}` } };
}

/** One call's standing: what the `X-RateLimit-*` headers say, and whether the call may go on. */
export interface RateLimitVerdict {
  readonly allowed: boolean;
  readonly resource: RateLimitResource;
  readonly limit: number;
  readonly remaining: number;
  readonly used: number;
  /** When the window ends, in Unix seconds. */
  readonly reset: number;
  /** Seconds until then, at least 1 (a refusal's `Retry-After`). */
  readonly retryAfter: number;
}

/** The caller of an anonymous call from `address` (IPv6 by its /64, as sign-in throttling counts it). */
export function addressCaller(address: string | undefined): RateLimitCaller {
  const network = address === undefined ? 'in-process' : networkOf(address);
  return rateLimitCaller(`ip:${network}`, false, network);
}

/** A process's share of one counter in the current window. */
interface Bucket {
  /** When the window ends (Unix seconds). */
  reset: number;
  /** Calls this process claimed and has not made yet. */
  left: number;
  /** Calls every process had claimed in the window as of this process's last claim. */
  claimed: number;
}

const RESOURCES: readonly RateLimitResource[] = ['core', 'search', 'git'];

/** Counters held in memory at most: past that, the least recently claimed is dropped (with its unused calls). */
const MAX_BUCKETS = 50_000;
/** The automatic claim: a fiftieth of the limit, between these. */
const MIN_AUTO_CLAIM = 1;
const MAX_AUTO_CLAIM = 1000;

/**
 * API rate limits (`[api.ratelimit]`), counted in the database so every process of an installation shares them.
 * A process does not write a row per call: it claims a slice of a caller's budget (`RateLimitStore.claim`, one
 * conditional statement) and counts calls against it in memory, claiming again when it is spent. The row says what
 * all processes together claimed in the window, so the calls served never exceed the limit; a process's unused
 * slice is lost to the caller until the window ends, so a caller may be refused up to a slice per process early.
 * A counter known to be spent refuses without asking the database again until its window ends.
 */
export class RateLimitService {
  private readonly buckets = new BoundedMap<string, Bucket>(MAX_BUCKETS);
  /** Claims under way, so concurrent calls of one caller wait for one claim instead of each making one. */
  private readonly pending = new Map<string, Promise<void>>();
  private claims = 0;

  constructor(private readonly ctx: CoreContext) {}

  /** Claims this service made of the database (one row write each): for measurements and tests. */
  get claimCount(): number {
    return this.claims;
  }

  /**
   * Counts one call of `caller` against `resource`: its verdict, at once when this process holds calls of the
   * caller's current window (no await, no database), else after a claim. undefined when the resource has no limit
   * for such callers (0).
   */
  take(resource: RateLimitResource, caller: RateLimitCaller): RateLimitVerdict | undefined | Promise<RateLimitVerdict | undefined> {
    const limit = this.limitOf(resource, caller.authenticated);
    if (limit <= 0) return undefined;
    const key = caller.counters[resource];
    const bucket = this.buckets.get(key);
    if (bucket !== undefined) {
      const now = Date.now() / 1000;
      if (now < bucket.reset) {
        if (bucket.left > 0) {
          bucket.left--;
          return verdict(true, resource, limit, bucket, now);
        }
        if (bucket.claimed >= limit) return verdict(false, resource, limit, bucket, now);
      }
    }
    return this.takeClaiming(resource, key, limit);
  }

  /** `take` once this process must claim calls: waits for a claim under way, or makes one. */
  private async takeClaiming(resource: RateLimitResource, key: string, limit: number): Promise<RateLimitVerdict> {
    for (;;) {
      const bucket = this.buckets.get(key);
      const now = Date.now() / 1000;
      if (bucket !== undefined && now < bucket.reset) {
        if (bucket.left > 0) {
          bucket.left--;
          return verdict(true, resource, limit, bucket, now);
        }
        if (bucket.claimed >= limit) return verdict(false, resource, limit, bucket, now);
      }
      const running = this.pending.get(key);
      if (running) {
        await running;
        continue;
      }
      const claim = this.claim(resource, key, limit);
      this.pending.set(key, claim);
      try {
        await claim;
      } finally {
        this.pending.delete(key);
      }
    }
  }

  private async claim(resource: RateLimitResource, key: string, limit: number): Promise<void> {
    const settings = this.ctx.settings['api.ratelimit'];
    const window = this.windowOf(resource);
    const want = Math.min(limit, settings.CLAIM_SIZE > 0 ? settings.CLAIM_SIZE : Math.max(MIN_AUTO_CLAIM, Math.min(MAX_AUTO_CLAIM, Math.floor(limit / 50))));
    this.claims++;
    const got: RateLimitClaim = await this.ctx.store(RateLimitStore).claim(key, want, limit, nowUnix(), window);
    // Most recently claimed last, so the bounded map drops the callers that went quiet first.
    this.buckets.delete(key);
    this.buckets.set(key, { reset: got.windowStart + window, left: got.granted, claimed: got.claimed });
  }

  /** [cleanup_rate_limits] Deletes counters whose window ended, each resource by its own window. */
  async cleanup(): Promise<string> {
    const store = this.ctx.store(RateLimitStore);
    const now = nowUnix();
    let removed = 0;
    for (const resource of RESOURCES) removed += await store.deleteStarted(resource, now - this.windowOf(resource));
    return `removed ${removed} ended rate limit counters`;
  }

  /** The stored counters (tests, inspection). */
  counters(): Promise<{ key: string; window_start_unix: number; claimed: number; granted: number }[]> {
    return this.ctx.store(RateLimitStore).rows();
  }

  private limitOf(resource: RateLimitResource, authenticated: boolean): number {
    const s = this.ctx.settings['api.ratelimit'];
    switch (resource) {
      case 'core':
        return authenticated ? s.CORE_LIMIT : s.CORE_ANONYMOUS_LIMIT;
      case 'search':
        return authenticated ? s.SEARCH_LIMIT : s.SEARCH_ANONYMOUS_LIMIT;
      case 'git':
        return authenticated ? s.GIT_LIMIT : s.GIT_ANONYMOUS_LIMIT;
    }
  }

  private windowOf(resource: RateLimitResource): number {
    const s = this.ctx.settings['api.ratelimit'];
    return resource === 'core' ? s.CORE_WINDOW : resource === 'search' ? s.SEARCH_WINDOW : s.GIT_WINDOW;
  }
}

function verdict(allowed: boolean, resource: RateLimitResource, limit: number, bucket: Bucket, now: number): RateLimitVerdict {
  const remaining = Math.max(0, limit - bucket.claimed + bucket.left);
  return {
    allowed,
    resource,
    limit,
    remaining,
    used: limit - remaining,
    reset: bucket.reset,
    retryAfter: Math.max(1, Math.ceil(bucket.reset - now)),
  };
}
