import { isoTime, type ApiView } from '../wire.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import type { ApiReaction } from './schemas.js';
import type { Reaction } from './tables.js';

/** The API view of a reaction and the user who reacted (shown to the viewer as any user record is). */
export function toApiReaction(reaction: Reaction, user: User, view: ApiView): ApiReaction {
  return { user: toApiUser(user, view), content: reaction.type, created_at: isoTime(reaction.created_unix) };
}
