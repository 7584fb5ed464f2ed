/**
 * A pull mirror's interval as Forgejo checks it: a Go duration (Go's error texts answered as they are) of at least
 * `[mirror] MIN_INTERVAL`, or `0` for none. Intervals are kept in seconds.
 */
import { ValidationError } from '../errors.js';
import { formatGoNanos, GoDurationError, parseGoDurationNanos } from '../go-duration.js';

/** `[mirror] MIN_INTERVAL` / `DEFAULT_INTERVAL` in nanoseconds; a setting that does not parse counts as Forgejo's default. */
export function settingNanos(text: string, fallback: string): number {
  try {
    return parseGoDurationNanos(text.trim());
  } catch {
    return parseGoDurationNanos(fallback);
  }
}

/**
 * A mirror interval as sent (`mirror_interval`): seconds, 0 for none. Refused (422) when it does not parse or is
 * below `[mirror] MIN_INTERVAL` (0 is always allowed).
 */
export function parseMirrorInterval(text: string, minInterval: string, message: (value: string, min: string) => string): number {
  let nanos: number;
  try {
    nanos = parseGoDurationNanos(text);
  } catch (error) {
    if (error instanceof GoDurationError) throw new ValidationError('', error.message);
    throw error;
  }
  const min = settingNanos(minInterval, '10m');
  if (nanos !== 0 && nanos < min) throw new ValidationError('', message(formatGoNanos(nanos), formatGoNanos(min)));
  if (nanos === 0) return 0;
  return Math.max(1, Math.floor(nanos / 1e9));
}
