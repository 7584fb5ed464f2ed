import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';

/** The API `Milestone` record. */
export const MilestoneSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    title: Type.String(),
    description: Type.String(),
    state: StringEnum(['open', 'closed'] as const, { description: 'StateType issue state type' }),
    open_issues: Type.Integer({ format: 'int64' }),
    closed_issues: Type.Integer({ format: 'int64' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** Null while open. */
    closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    /** Null without a due date. */
    due_on: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'Milestone', description: 'Milestone milestone is a collection of issues on one repository' },
);
export type ApiMilestone = Static<typeof MilestoneSchema>;

export const CreateMilestoneOptionSchema = Type.Object(
  {
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    due_on: Type.Optional(Type.String({ format: 'date-time' })),
    state: Type.Optional(StringEnum(['open', 'closed'] as const)),
  },
  { $id: 'CreateMilestoneOption', description: 'CreateMilestoneOption options for creating a milestone' },
);
export type CreateMilestoneOption = Static<typeof CreateMilestoneOptionSchema>;

export const EditMilestoneOptionSchema = Type.Object(
  {
    title: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    due_on: Type.Optional(Type.String({ format: 'date-time' })),
    // Forgejo closes the milestone for "closed" and opens it for any other text.
    state: Type.Optional(Type.String()),
  },
  { $id: 'EditMilestoneOption', description: 'EditMilestoneOption options for editing a milestone' },
);
export type EditMilestoneOption = Static<typeof EditMilestoneOptionSchema>;

export const MILESTONE_STATE_FILTERS = ['open', 'closed', 'all'] as const;

/** `GET /repos/{owner}/{repo}/milestones`. */
export const MilestoneListQuerySchema = Type.Object({
  // Forgejo reads any other text as "open".
  state: Type.Optional(Type.String({ description: 'Milestone state, Recognized values are open, closed and all. Defaults to "open"' })),
  name: Type.Optional(Type.String({ description: 'filter by milestone name' })),
});
export type MilestoneListQuery = Static<typeof MilestoneListQuerySchema>;
