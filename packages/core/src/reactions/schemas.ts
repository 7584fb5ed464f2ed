import { Type, type Static } from '@sinclair/typebox';
import { UserSchema } from '../users/index.js';

/** The API `Reaction` record. */
export const ReactionSchema = Type.Object(
  {
    user: UserSchema,
    content: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Reaction', description: 'Reaction contain one reaction' },
);
export type ApiReaction = Static<typeof ReactionSchema>;

/** The body of adding or removing a reaction; a missing `content` reads as "", which no allowed list holds. */
export const EditReactionOptionSchema = Type.Object(
  { content: Type.Optional(Type.String()) },
  { $id: 'EditReactionOption', description: 'EditReactionOption contain the reaction type' },
);
export type EditReactionOption = Static<typeof EditReactionOptionSchema>;
