/**
 * One rate limit counter: a resource and a caller (`core:user:12`), the window it counts in, the calls every
 * process together claimed in that window, and what the latest claim was granted (what `claim` reads back).
 */
export interface RateLimitTable {
  key: string;
  window_start_unix: number;
  claimed: number;
  granted: number;
}

/** The tables the ratelimit kernel folder owns. */
export interface RateLimitTables {
  rate_limit: RateLimitTable;
}

declare module '../storage/schema.js' {
  interface Schema extends RateLimitTables {}
}
