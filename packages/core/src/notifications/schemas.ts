import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { RepositorySchema } from '../repos/index.js';

/** What a thread is about, as the API names it. */
export const NOTIFY_SUBJECT_TYPES = ['Issue', 'Pull', 'Commit', 'Repository'] as const;
export type NotifySubjectType = (typeof NOTIFY_SUBJECT_TYPES)[number];

export const NotificationSubjectSchema = Type.Object(
  {
    title: Type.String(),
    url: Type.String(),
    latest_comment_url: Type.String(),
    html_url: Type.String(),
    latest_comment_html_url: Type.String(),
    type: StringEnum(NOTIFY_SUBJECT_TYPES, { description: 'NotifySubjectType represent type of notification subject' }),
    // Empty for a repository's thread, as Forgejo leaves it.
    state: StringEnum(['open', 'closed', ''] as const, { description: 'StateType issue state type' }),
  },
  { $id: 'NotificationSubject', description: 'NotificationSubject contains the notification subject (Issue/Pull/Commit)' },
);
export type ApiNotificationSubject = Static<typeof NotificationSubjectSchema>;

export const NotificationThreadSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    // Forgejo leaves out the permissions: they would be the reader's minimal ones, not the caller's.
    repository: Type.Omit(RepositorySchema, ['permissions'], { description: 'Repository represents a repository' }),
    subject: NotificationSubjectSchema,
    unread: Type.Boolean(),
    pinned: Type.Boolean(),
    updated_at: Type.String({ format: 'date-time' }),
    url: Type.String(),
  },
  { $id: 'NotificationThread', description: 'NotificationThread expose Notification on API' },
);
export type ApiNotificationThread = Static<typeof NotificationThreadSchema>;

export const NotificationCountSchema = Type.Object(
  { new: Type.Integer({ format: 'int64' }) },
  { $id: 'NotificationCount', description: 'NotificationCount number of unread notifications' },
);
export type ApiNotificationCount = Static<typeof NotificationCountSchema>;

/**
 * `GET /notifications` and `GET /repos/{owner}/{repo}/notifications`. Statuses and subject types are free text, as
 * Forgejo reads them: names it does not know are ignored.
 */
export const NotificationListQuerySchema = Type.Object({
  all: Type.Optional(Type.Boolean({ description: 'If true, show notifications marked as read. Default value is false' })),
  'status-types': Type.Optional(
    Type.Array(Type.String(), { description: 'Show notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread & pinned.' }),
  ),
  'subject-type': Type.Optional(Type.Array(Type.String(), { description: 'filter notifications by subject type' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Only show notifications updated after the given time. This is a timestamp in RFC 3339 format' })),
  before: Type.Optional(Type.String({ format: 'date-time', description: 'Only show notifications updated before the given time. This is a timestamp in RFC 3339 format' })),
});
export type NotificationListQuery = Static<typeof NotificationListQuerySchema>;

/** `PUT /notifications` and `PUT /repos/{owner}/{repo}/notifications`. */
export const NotificationMarkQuerySchema = Type.Object({
  // An RFC 3339 time; parsed by the service, since Forgejo answers a malformed one with 400 rather than 422.
  last_read_at: Type.Optional(
    Type.String({ description: 'Describes the last point that notifications were checked. Anything updated since this time will not be updated.' }),
  ),
  all: Type.Optional(Type.Boolean({ description: 'If true, mark all notifications on this repo. Default value is false' })),
  'status-types': Type.Optional(
    Type.Array(Type.String(), { description: 'Mark notifications with the provided status types. Options are: unread, read and/or pinned. Defaults to unread.' }),
  ),
  'to-status': Type.Optional(Type.String({ description: 'Status to mark notifications as, Defaults to read.' })),
});
export type NotificationMarkQuery = Static<typeof NotificationMarkQuerySchema>;

/** `PATCH /notifications/threads/{id}`. */
export const NotificationThreadMarkQuerySchema = Type.Object({
  'to-status': Type.Optional(Type.String({ default: 'read', description: 'Status to mark notifications as' })),
});
export type NotificationThreadMarkQuery = Static<typeof NotificationThreadMarkQuerySchema>;
