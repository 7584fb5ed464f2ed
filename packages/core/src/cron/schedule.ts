/**
 * Schedules as Forgejo's `[cron.<name>] SCHEDULE` reads them: descriptors (`@every 10m`, `@midnight`, `@hourly`,
 * `@daily`, `@weekly`, `@monthly`, `@yearly`, `@annually`) and cron expressions of five fields (minute hour
 * day-of-month month day-of-week) or six (seconds first), with lists, ranges, steps, `*`, `?` and month and day
 * names. Times are the server's local time, as Forgejo's scheduler keeps them.
 */
import { parseGoDuration } from '../go-duration.js';

export interface Schedule {
  /** The first run strictly after `afterMs` (epoch milliseconds), in epoch milliseconds. */
  next(afterMs: number): number;
}

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 0 1 1 *',
  '@annually': '0 0 0 1 1 *',
  '@monthly': '0 0 0 1 * *',
  '@weekly': '0 0 0 * * 0',
  '@daily': '0 0 0 * * *',
  '@midnight': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
};

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  min: number;
  max: number;
  names?: string[];
  /** The first name stands for this number (months count from 1). */
  nameBase?: number;
}

const SECOND: FieldSpec = { min: 0, max: 59 };
const MINUTE: FieldSpec = { min: 0, max: 59 };
const HOUR: FieldSpec = { min: 0, max: 23 };
const DAY_OF_MONTH: FieldSpec = { min: 1, max: 31 };
const MONTH: FieldSpec = { min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 };
const DAY_OF_WEEK: FieldSpec = { min: 0, max: 6, names: DAY_NAMES, nameBase: 0 };

interface Field {
  values: Set<number>;
  /** Written as `*` or `?` (the day fields combine differently then). */
  any: boolean;
}

function parseNumber(text: string, spec: FieldSpec): number | undefined {
  const lower = text.toLowerCase();
  const named = spec.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= spec.min && value <= spec.max ? value : undefined;
}

function parseField(text: string, spec: FieldSpec): Field | undefined {
  const values = new Set<number>();
  let any = false;
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (range === undefined || extra !== undefined) return undefined;
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0) return undefined;
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (range === '*' || range === '?') {
      low = spec.min;
      high = spec.max;
      if (stepText === undefined) any = true;
    } else {
      const [lowText, highText, more] = range.split('-');
      if (lowText === undefined || more !== undefined) return undefined;
      const lowValue = parseNumber(lowText, spec);
      if (lowValue === undefined) return undefined;
      low = lowValue;
      if (highText !== undefined) {
        const highValue = parseNumber(highText, spec);
        if (highValue === undefined || highValue < low) return undefined;
        high = highValue;
      } else {
        // `5/15` runs from 5 to the end in steps; a bare `5` is 5 alone.
        high = stepText !== undefined ? spec.max : low;
      }
    }
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return values.size > 0 ? { values, any } : undefined;
}

class CronExpression implements Schedule {
  constructor(
    private readonly second: Field,
    private readonly minute: Field,
    private readonly hour: Field,
    private readonly dayOfMonth: Field,
    private readonly month: Field,
    private readonly dayOfWeek: Field,
  ) {}

  private dayMatches(date: Date): boolean {
    const dom = this.dayOfMonth.values.has(date.getDate());
    const dow = this.dayOfWeek.values.has(date.getDay());
    // Both restricted: either may match (as cron does); otherwise both must.
    if (!this.dayOfMonth.any && !this.dayOfWeek.any) return dom || dow;
    return dom && dow;
  }

  next(afterMs: number): number {
    const date = new Date(Math.floor(afterMs / 1000) * 1000 + 1000);
    const yearLimit = date.getFullYear() + 5;
    // Each step moves to the start of the next candidate unit; a wrap into a new larger unit starts over.
    for (let guard = 0; guard < 100_000 && date.getFullYear() <= yearLimit; guard++) {
      if (!this.month.values.has(date.getMonth() + 1)) {
        date.setMonth(date.getMonth() + 1, 1);
        date.setHours(0, 0, 0, 0);
        continue;
      }
      if (!this.dayMatches(date)) {
        date.setDate(date.getDate() + 1);
        date.setHours(0, 0, 0, 0);
        continue;
      }
      if (!this.hour.values.has(date.getHours())) {
        date.setHours(date.getHours() + 1, 0, 0, 0);
        continue;
      }
      if (!this.minute.values.has(date.getMinutes())) {
        date.setMinutes(date.getMinutes() + 1, 0, 0);
        continue;
      }
      if (!this.second.values.has(date.getSeconds())) {
        date.setSeconds(date.getSeconds() + 1, 0);
        continue;
      }
      return date.getTime();
    }
    // Never matches (e.g. the 31st of February): as good as never.
    return Number.MAX_SAFE_INTEGER;
  }
}

class EveryInterval implements Schedule {
  constructor(private readonly seconds: number) {}

  next(afterMs: number): number {
    return Math.floor(afterMs / 1000) * 1000 + this.seconds * 1000;
  }
}

/** The schedule a spec describes, or undefined when it is not one. */
export function parseSchedule(spec: string): Schedule | undefined {
  const text = spec.trim();
  if (text.startsWith('@every ')) {
    const seconds = parseGoDuration(text.slice('@every '.length));
    // Below a second the scheduler would spin; Forgejo's rounds up to one second too.
    return seconds !== undefined && seconds >= 0 ? new EveryInterval(Math.max(1, seconds)) : undefined;
  }
  const expanded = DESCRIPTORS[text.toLowerCase()] ?? text;
  const fields = expanded.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return undefined;
  if (fields.length === 5) fields.unshift('0');
  const specs = [SECOND, MINUTE, HOUR, DAY_OF_MONTH, MONTH, DAY_OF_WEEK];
  const parsed = fields.map((field, i) => parseField(field, specs[i]!));
  if (parsed.some((field) => field === undefined)) return undefined;
  const [second, minute, hour, dayOfMonth, month, dayOfWeek] = parsed as Field[];
  return new CronExpression(second!, minute!, hour!, dayOfMonth!, month!, dayOfWeek!);
}
