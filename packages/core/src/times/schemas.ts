import { Type, type Static } from '@sinclair/typebox';
import { IssueSchema } from '../issues/index.js';

/** The API `TrackedTime` record: seconds a user spent on an issue. */
export const TrackedTimeSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    created: Type.String({ format: 'date-time' }),
    time: Type.Integer({ format: 'int64', description: 'Time in seconds' }),
    user_id: Type.Integer({ format: 'int64', description: 'deprecated (only for backwards compatibility)' }),
    user_name: Type.String(),
    issue_id: Type.Integer({ format: 'int64', description: 'deprecated (only for backwards compatibility)' }),
    issue: Type.Union([IssueSchema, Type.Null()]),
  },
  { $id: 'TrackedTime', description: 'TrackedTime worked time for an issue / pr' },
);
export type ApiTrackedTime = Static<typeof TrackedTimeSchema>;

/** The API `StopWatch` record: a running stopwatch. */
export const StopWatchSchema = Type.Object(
  {
    created: Type.String({ format: 'date-time' }),
    seconds: Type.Integer({ format: 'int64' }),
    duration: Type.String(),
    issue_index: Type.Integer({ format: 'int64' }),
    issue_title: Type.String(),
    repo_owner_name: Type.String(),
    repo_name: Type.String(),
  },
  { $id: 'StopWatch', description: 'StopWatch represent a running stopwatch' },
);
export type ApiStopWatch = Static<typeof StopWatchSchema>;

/** `POST /repos/{owner}/{repo}/issues/{index}/times`. */
export const AddTimeOptionSchema = Type.Object(
  {
    time: Type.Integer({ format: 'int64', description: 'time in seconds' }),
    created: Type.Optional(Type.String({ format: 'date-time' })),
    user_name: Type.Optional(Type.String({ description: 'User who spent the time (optional)' })),
  },
  { $id: 'AddTimeOption', description: 'AddTimeOption options for adding time to an issue' },
);
export type AddTimeOption = Static<typeof AddTimeOptionSchema>;

/** The `since`/`before` filters of tracked time lists (RFC 3339). */
export const TrackedTimeRangeQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Only show times updated after the given time. This is a timestamp in RFC 3339 format' })),
  before: Type.Optional(Type.String({ format: 'date-time', description: 'Only show times updated before the given time. This is a timestamp in RFC 3339 format' })),
});

/** Range filters plus `user` (a user name; issue managers may ask for anyone's). */
export const TrackedTimeQuery = Type.Object({
  user: Type.Optional(Type.String({ description: 'optional filter by user (available for issue managers)' })),
  ...TrackedTimeRangeQuery.properties,
});
export type TrackedTimeQueryInput = Static<typeof TrackedTimeQuery>;
