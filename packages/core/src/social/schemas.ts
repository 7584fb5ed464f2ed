import { Type, type Static } from '@sinclair/typebox';

/** A repository's watch status for the caller (`/repos/{owner}/{repo}/subscription`). */
export const WatchInfoSchema = Type.Object(
  {
    subscribed: Type.Boolean(),
    ignored: Type.Boolean(),
    // Forgejo leaves it untyped and always sends null.
    reason: Type.Unknown(),
    created_at: Type.String({ format: 'date-time' }),
    url: Type.String(),
    repository_url: Type.String(),
  },
  { $id: 'WatchInfo', description: 'WatchInfo represents an API watch status of one repository' },
);
export type ApiWatchInfo = Static<typeof WatchInfoSchema>;

/** One account the caller blocked (`/user/list_blocked`). */
export const BlockedUserSchema = Type.Object(
  {
    block_id: Type.Integer({ format: 'int64' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'BlockedUser', title: 'BlockedUser represents a blocked user.' },
);
export type ApiBlockedUser = Static<typeof BlockedUserSchema>;
