/**
 * The `schedule:` cron specs of workflows, as Forgejo reads them (robfig/cron's standard parser: five fields, minute
 * hour day-of-month month day-of-week, with lists, ranges, steps, `*`, `?`, month and day names, and the descriptors
 * `@yearly` … `@hourly` and `@every <duration>`), evaluated in UTC as GitHub and Forgejo evaluate workflow schedules.
 * Not `cron/schedule.ts`: that one keeps the server's local time (Forgejo's own `[cron.*]` tasks), and `cron` sits
 * above `actions` in the layers.
 */
import { parseGoDuration } from '../../go-duration.js';

const DESCRIPTORS = new Map<string, string>([
  ['@yearly', '0 0 1 1 *'],
  ['@annually', '0 0 1 1 *'],
  ['@monthly', '0 0 1 * *'],
  ['@weekly', '0 0 * * 0'],
  ['@daily', '0 0 * * *'],
  ['@midnight', '0 0 * * *'],
  ['@hourly', '0 * * * *'],
]);

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface Bounds {
  min: number;
  max: number;
  names?: string[];
  /** The number the first name stands for. */
  base?: number;
}

const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, base: 1 },
  { min: 0, max: 6, names: DAYS, base: 0 },
];

interface Field {
  values: Set<number>;
  /** Written as `*` or `?` without a step above one: robfig's star bit, which changes how the day fields combine. */
  star: boolean;
}

const isDigits = (text: string) => text.length > 0 && text.length <= 4 && [...text].every((c) => c >= '0' && c <= '9');

function parseValue(text: string, bounds: Bounds): number | undefined {
  const named = bounds.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (bounds.base ?? 0);
  if (!isDigits(text)) return undefined;
  const value = Number(text);
  return value >= bounds.min && value <= bounds.max ? value : undefined;
}

function parseField(text: string, bounds: Bounds): Field | undefined {
  const values = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (range === undefined || extra !== undefined) return undefined;
    let step = 1;
    if (stepText !== undefined) {
      if (!isDigits(stepText) || Number(stepText) === 0) return undefined;
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (range === '*' || range === '?') {
      low = bounds.min;
      high = bounds.max;
      if (step <= 1) star = true;
    } else {
      const [lowText, highText, more] = range.split('-');
      if (lowText === undefined || more !== undefined) return undefined;
      const lowValue = parseValue(lowText, bounds);
      if (lowValue === undefined) return undefined;
      low = lowValue;
      if (highText !== undefined) {
        const highValue = parseValue(highText, bounds);
        if (highValue === undefined || highValue < low) return undefined;
        high = highValue;
      } else high = stepText !== undefined ? bounds.max : low; // `5/15` is 5 to the end in steps
    }
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return values.size > 0 ? { values, star } : undefined;
}

type Next = (afterMs: number) => number | undefined;

/** The schedule a spec describes (UTC), or undefined when it is not one Forgejo accepts. */
function compileSpec(spec: string): Next | undefined {
  let text = spec.trim();
  // robfig takes a zone prefix; only UTC is meaningful here, the zone every schedule is evaluated in anyway.
  for (const prefix of ['TZ=', 'CRON_TZ=']) {
    if (text.startsWith(prefix)) {
      const space = text.indexOf(' ');
      const zone = space < 0 ? '' : text.slice(prefix.length, space);
      if (zone !== 'UTC' && zone !== 'Etc/UTC') return undefined;
      text = text.slice(space + 1).trim();
    }
  }
  if (text.startsWith('@every ')) {
    const seconds = parseGoDuration(text.slice('@every '.length));
    if (seconds === undefined || seconds < 0) return undefined;
    // robfig rounds the delay to whole seconds, at least one.
    const delay = Math.max(1, seconds) * 1000;
    return (afterMs) => Math.floor(afterMs / 1000) * 1000 + delay;
  }
  const expanded = DESCRIPTORS.get(text.toLowerCase()) ?? text;
  const parts = expanded.split(' ').filter((part) => part !== '');
  if (parts.length !== 5) return undefined;
  const fields: Field[] = [];
  for (let i = 0; i < 5; i++) {
    const field = parseField(parts[i]!, FIELDS[i]!);
    if (field === undefined) return undefined;
    fields.push(field);
  }
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [Field, Field, Field, Field, Field];
  const dayMatches = (date: Date) => {
    const dom = dayOfMonth.values.has(date.getUTCDate());
    const dow = dayOfWeek.values.has(date.getUTCDay());
    // robfig: when either day field is a star both must match, otherwise either may.
    return dayOfMonth.star || dayOfWeek.star ? dom && dow : dom || dow;
  };
  return (afterMs) => {
    const date = new Date(Math.floor(afterMs / 60_000) * 60_000 + 60_000);
    const limit = date.getUTCFullYear() + 5;
    // Each miss moves to the start of the next candidate month, day, hour or minute (robfig's walk).
    while (date.getUTCFullYear() <= limit) {
      if (!month.values.has(date.getUTCMonth() + 1)) {
        date.setUTCMonth(date.getUTCMonth() + 1, 1);
        date.setUTCHours(0, 0, 0, 0);
      } else if (!dayMatches(date)) {
        date.setUTCDate(date.getUTCDate() + 1);
        date.setUTCHours(0, 0, 0, 0);
      } else if (!hour.values.has(date.getUTCHours())) {
        date.setUTCHours(date.getUTCHours() + 1, 0, 0, 0);
      } else if (!minute.values.has(date.getUTCMinutes())) {
        date.setUTCMinutes(date.getUTCMinutes() + 1, 0, 0);
      } else return date.getTime();
    }
    // Never within five years (the 30th of February): robfig gives up there too.
    return undefined;
  };
}

/** Whether Forgejo accepts `spec` as a workflow schedule. */
export function isValidScheduleSpec(spec: string): boolean {
  return compileSpec(spec) !== undefined;
}

/**
 * The first time strictly after `afterMs` (epoch milliseconds) at which `spec` fires, in epoch milliseconds (UTC);
 * undefined for an invalid spec or one that never fires.
 */
export function nextScheduleTime(spec: string, afterMs: number): number | undefined {
  return compileSpec(spec)?.(afterMs);
}
