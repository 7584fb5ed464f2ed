/**
 * What every domain's converter (`toApiX` in its `convert.ts`) shares: who is looking, and how times are written.
 * Converters are pure functions of the stored row and this view.
 */
import type { Settings } from './config/settings.js';
import type { Actor } from './users/actor.js';

/** Who a response is for (fields depend on it) and the settings that shape URLs. */
export interface ApiView {
  readonly viewer: Actor;
  readonly settings: Settings;
}

/** RFC 3339 time of a unix timestamp; 0 ("never") is Go's zero time, as Forgejo prints it. */
export function isoTime(unix: number): string {
  if (!unix) return '0001-01-01T00:00:00Z';
  return `${new Date(unix * 1000).toISOString().slice(0, 19)}Z`;
}
