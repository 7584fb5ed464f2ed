/**
 * Forgejo keeps due dates as days: a date given with a time keeps its day and ends at that day's last second
 * (UTC here); no date, or Go's zero time, is none. Shared by the deadline route and issue create/edit.
 */
import { ValidationError } from '../errors.js';

/** Go's zero time, which Forgejo reads as "no deadline". */
const ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

/** The stored deadline for a requested one: the last second of its day, or 0 for none. */
export function deadlineOf(field: string, iso: string | undefined): number {
  if (iso === undefined) return 0;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new ValidationError(field, 'invalid time');
  if (ms === ZERO_TIME_MS) return 0;
  // The day as written (in the offset the caller gave), ending at 23:59:59 UTC as the issue core stores it.
  const end = Date.parse(`${iso.slice(0, 10)}T23:59:59Z`);
  if (Number.isNaN(end)) throw new ValidationError(field, 'invalid time');
  return Math.floor(end / 1000);
}

/** Forgejo's deadline timeline text: the date (YYYY-MM-DD), or `new|old` when one date replaces another. */
export function deadlineCommentContent(next: number, previous: number): string {
  const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
  if (next === 0) return day(previous);
  return previous === 0 ? day(next) : `${day(next)}|${day(previous)}`;
}
