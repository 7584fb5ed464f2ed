import { isoTime } from '../wire.js';
import type { ApiIssue } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import type { ApiStopWatch, ApiTrackedTime } from './schemas.js';
import type { Stopwatch, TrackedTime } from './tables.js';

/**
 * A tracked time as the API shows it. `userName` is its user's name; `issue` the
 * converted issue, or null when it is not shown (gone, or no longer readable by the viewer).
 */
export function toApiTrackedTime(time: TrackedTime, userName: string, issue: ApiIssue | null): ApiTrackedTime {
  return {
    id: time.id,
    created: isoTime(Number(time.created_unix)),
    time: Number(time.time),
    user_id: time.user_id,
    user_name: userName,
    issue_id: time.issue_id,
    issue,
  };
}

/** A running stopwatch, with how long it has run at `nowUnix`. */
export function toApiStopWatch(stopwatch: Stopwatch, issue: Issue, where: { ownerName: string; repoName: string }, nowUnix: number): ApiStopWatch {
  const seconds = Math.max(0, nowUnix - Number(stopwatch.created_unix));
  return {
    created: isoTime(Number(stopwatch.created_unix)),
    seconds,
    duration: secondsToText(seconds),
    issue_index: Number(issue.index),
    issue_title: issue.name,
    repo_owner_name: where.ownerName,
    repo_name: where.repoName,
  };
}

/**
 * Seconds as Forgejo words a duration (its `SecToTime`): the two largest units that apply, from years down to
 * seconds, e.g. `1 minute 6 seconds`, `14 hours 33 minutes`, `2 weeks 4 days`; 0 is the empty string.
 */
export function secondsToText(total: number): string {
  const duration = Math.trunc(total);
  let remainingDays = Math.trunc(duration / 86400);
  const years = Math.trunc(remainingDays / 365);
  remainingDays -= years * 365;
  const months = Math.trunc((remainingDays * 12) / 365);
  remainingDays -= Math.trunc((months * 365) / 12);
  const weeks = Math.trunc(remainingDays / 7);
  remainingDays -= weeks * 7;
  const days = remainingDays;
  const hours = Math.trunc(duration / 3600) % 24;
  const minutes = Math.trunc(duration / 60) % 60;
  const seconds = duration % 60;
  const pairs: [number, string][] =
    years > 0 ? [[years, 'year'], [months, 'month']]
    : months > 0 ? [[months, 'month'], [weeks, 'week']]
    : weeks > 0 ? [[weeks, 'week'], [days, 'day']]
    : days > 0 ? [[days, 'day'], [hours, 'hour']]
    : hours > 0 ? [[hours, 'hour'], [minutes, 'minute']]
    : [[minutes, 'minute'], [seconds, 'second']];
  return pairs
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value} ${unit}${value === 1 ? '' : 's'}`)
    .join(' ');
}
