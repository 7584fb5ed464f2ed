/**
 * Go's `time.Duration` as Forgejo checks a pull mirror's interval: `ParseDuration` syntax (`1h30m`, `10m`, `1.5h`,
 * `0`) with Go's error texts, which the API answers (`migrate/go-duration.ts` only says whether text parses), and
 * the minimum `[mirror] MIN_INTERVAL`. Intervals are kept in seconds.
 */
import { ValidationError } from '../errors.js';
import { formatGoDuration } from '../migrate/go-duration.js';

export { formatGoDuration };

const UNIT_NANOS = new Map<string, number>([
  ['ns', 1],
  ['us', 1e3],
  ['µs', 1e3],
  ['μs', 1e3],
  ['ms', 1e6],
  ['s', 1e9],
  ['m', 60e9],
  ['h', 3600e9],
]);

/** Go's strconv.Quote, enough for error texts: the value in double quotes, with quotes and backslashes escaped. */
function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&').replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`;
}

/** Parses a Go duration into nanoseconds (a float: precise enough for intervals); throws Go's message as an Error. */
export function parseGoDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${quote(text)}`);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let total = 0;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    const whole = number[1] ?? '';
    const fraction = number[2];
    if (whole === '' && (fraction === undefined || fraction === '')) throw invalid();
    rest = rest.slice(number[0].length);
    const unitMatch = /^[^\d.]*/.exec(rest)!;
    const unit = unitMatch[0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quote(text)}`);
    const nanos = UNIT_NANOS.get(unit);
    if (nanos === undefined) throw new Error(`time: unknown unit ${quote(unit)} in duration ${quote(text)}`);
    rest = rest.slice(unit.length);
    total += Number(`${whole || '0'}.${fraction || '0'}`) * nanos;
    // Go refuses what does not fit in an int64 of nanoseconds.
    if (total > 9223372036854775807) throw invalid();
  }
  return sign * total;
}

/** Formats nanoseconds as Go does for the values a setting may hold (whole seconds, or less than one). */
function formatNanos(nanos: number): string {
  if (nanos !== 0 && Math.abs(nanos) < 1e9) {
    if (Math.abs(nanos) >= 1e6) return `${nanos / 1e6}ms`;
    if (Math.abs(nanos) >= 1e3) return `${nanos / 1e3}µs`;
    return `${nanos}ns`;
  }
  const seconds = nanos / 1e9;
  return Number.isInteger(seconds) ? formatGoDuration(seconds) : `${formatGoDuration(Math.trunc(seconds)).replace(/\d+s$/, '')}${(Math.abs(seconds) % 60).toFixed(9).replace(/0+$/, '')}s`;
}

/** `[mirror] MIN_INTERVAL` / `DEFAULT_INTERVAL` in nanoseconds; a setting that does not parse counts as Forgejo's default. */
export function settingNanos(text: string, fallback: string): number {
  try {
    return parseGoDuration(text.trim());
  } catch {
    return parseGoDuration(fallback);
  }
}

/**
 * A mirror interval as sent (`mirror_interval`): seconds, 0 for none. Refused (422, field `MirrorInterval` as
 * Forgejo names it) when it does not parse or is below `[mirror] MIN_INTERVAL` (0 is always allowed).
 */
export function parseMirrorInterval(text: string, minInterval: string, message: (value: string, min: string) => string): number {
  let nanos: number;
  try {
    nanos = parseGoDuration(text);
  } catch (error) {
    throw new ValidationError('', (error as Error).message);
  }
  const min = settingNanos(minInterval, '10m');
  if (nanos !== 0 && nanos < min) throw new ValidationError('', message(formatNanos(nanos), formatNanos(min)));
  if (nanos === 0) return 0;
  return Math.max(1, Math.floor(nanos / 1e9));
}
