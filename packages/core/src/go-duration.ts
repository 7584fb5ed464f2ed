/**
 * Go's `time.Duration` text, as Forgejo reads and writes it (mirror intervals, push mirror intervals, `@every`
 * schedules, `[cron.*] OLDER_THAN`): `time.ParseDuration` syntax (`8h`, `1h30m`, `1.5h`, `90s`, `0`) with Go's
 * error texts, which the API answers; written back as `Duration.String()` prints it (`8h0m0s`, `10m0s`, `0s`).
 */
import { trimEnd } from './text.js';

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

/** A text `time.ParseDuration` refuses; the message is Go's. */
export class GoDurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoDurationError';
  }
}

/** Nanoseconds of a Go duration (a float: precise enough for intervals); throws GoDurationError with Go's message. */
export function parseGoDurationNanos(text: string): number {
  const invalid = () => new GoDurationError(`time: invalid duration ${quote(text)}`);
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
    const unit = /^[^\d.]*/.exec(rest)![0];
    if (unit === '') throw new GoDurationError(`time: missing unit in duration ${quote(text)}`);
    const nanos = UNIT_NANOS.get(unit);
    if (nanos === undefined) throw new GoDurationError(`time: unknown unit ${quote(unit)} in duration ${quote(text)}`);
    rest = rest.slice(unit.length);
    total += Number(`${whole || '0'}.${fraction || '0'}`) * nanos;
    // Go refuses what does not fit in an int64 of nanoseconds.
    if (total > 9223372036854775807) throw invalid();
  }
  return sign * total;
}

/** Whole seconds of a Go duration (rounded), or undefined when the text is not one. */
export function parseGoDuration(text: string): number | undefined {
  try {
    return Math.round(parseGoDurationNanos(text.trim()) / 1e9);
  } catch (error) {
    if (error instanceof GoDurationError) return undefined;
    throw error;
  }
}

/** Go's `Duration.String()` of whole seconds: `8h0m0s`, `10m0s`, `45s`, `0s`. */
export function formatGoDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(Math.round(seconds));
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const secs = rest - minutes * 60;
  if (hours > 0) return `${sign}${hours}h${minutes}m${secs}s`;
  if (minutes > 0) return `${sign}${minutes}m${secs}s`;
  return `${sign}${secs}s`;
}

/** `Duration.String()` of nanoseconds, for the values settings hold (whole seconds, or less than one). */
export function formatGoNanos(nanos: number): string {
  if (nanos !== 0 && Math.abs(nanos) < 1e9) {
    if (Math.abs(nanos) >= 1e6) return `${nanos / 1e6}ms`;
    if (Math.abs(nanos) >= 1e3) return `${nanos / 1e3}µs`;
    return `${nanos}ns`;
  }
  const seconds = nanos / 1e9;
  if (Number.isInteger(seconds)) return formatGoDuration(seconds);
  // The whole seconds (`…3s`) give way to the fraction; trimmed by scanning, as every pattern here must be linear.
  const whole = formatGoDuration(Math.trunc(seconds));
  const minutes = whole.endsWith('s') ? trimEnd(whole.slice(0, -1), '0123456789') : whole;
  return `${minutes}${trimEnd((Math.abs(seconds) % 60).toFixed(9), '0')}s`;
}
