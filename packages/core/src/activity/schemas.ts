import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { RepositorySchema } from '../repos/index.js';
import { OP_TYPE_NAMES } from './tables.js';

export const ActivitySchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    user_id: Type.Integer({ format: 'int64' }),
    op_type: StringEnum(OP_TYPE_NAMES, { description: 'the type of action' }),
    act_user_id: Type.Integer({ format: 'int64' }),
    act_user: UserSchema,
    repo_id: Type.Integer({ format: 'int64' }),
    repo: RepositorySchema,
    comment_id: Type.Integer({ format: 'int64' }),
    // A Comment once issues exist; null for the actions recorded so far.
    comment: Type.Union([Type.Null(), Type.Object({}, { additionalProperties: true })]),
    ref_name: Type.String(),
    is_private: Type.Boolean(),
    content: Type.String(),
    created: Type.String({ format: 'date-time' }),
  },
  { $id: 'Activity' },
);
export type ApiActivity = Static<typeof ActivitySchema>;

export const UserHeatmapDataSchema = Type.Object(
  {
    timestamp: Type.Integer({ format: 'int64' }),
    contributions: Type.Integer({ format: 'int64' }),
  },
  { $id: 'UserHeatmapData', description: 'UserHeatmapData represents the data needed to create a heatmap' },
);
export type ApiUserHeatmapData = Static<typeof UserHeatmapDataSchema>;

/** `date`, as both feeds take it: a day `YYYY-MM-DD` (anything else is ignored, as Forgejo ignores it). */
const DateQuery = Type.Optional(Type.String({ description: 'the date of the activities to be found' }));

export const UserActivityFeedsQuerySchema = Type.Object({
  'only-performed-by': Type.Optional(Type.Boolean({ description: 'if true, only show actions performed by the requested user' })),
  date: DateQuery,
});
export type UserActivityFeedsQuery = Static<typeof UserActivityFeedsQuerySchema>;

export const RepoActivityFeedsQuerySchema = Type.Object({ date: DateQuery });
export type RepoActivityFeedsQuery = Static<typeof RepoActivityFeedsQuerySchema>;
