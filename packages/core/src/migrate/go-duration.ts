/**
 * Go's `time.Duration` text, as Forgejo reads and writes mirror intervals (`mirror_interval`, a push mirror's
 * `interval`): `8h`, `1h30m`, `90s`, `1.5h`, `0`; written back as Go prints them (`8h0m0s`, `10m0s`, `0s`).
 * Whole seconds only: intervals finer than that mean nothing to a scheduler.
 */

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, 'μs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** Seconds of a Go duration, or undefined when the text is not one (Go's `time.ParseDuration` rules). */
export function parseGoDuration(text: string): number | undefined {
  let rest = text.trim();
  if (rest === '') return undefined;
  let sign = 1;
  if (rest[0] === '-' || rest[0] === '+') {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  const part = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const match = part.exec(rest);
    if (!match) return undefined;
    total += Number(match[1]) * UNIT_SECONDS[match[2]!]!;
    rest = rest.slice(match[0].length);
  }
  if (!Number.isFinite(total)) return undefined;
  return sign * Math.round(total);
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
