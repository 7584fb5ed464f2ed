/**
 * The users folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './admin-events.js';
import './events.js';
export { ANONYMOUS, SYSTEM, actorTask, actorUser, isActionsActor, isSelf, isSiteAdmin, signedInUser, taskActor, userActor, type Actor, type ActorTask } from './actor.js';
export { RenameUserOptionSchema, type EditUserOption, type RenameUserOption } from './admin-schemas.js';
export { UserAdminService } from './admin-service.js';
export { UserAvatarsService, decodeAvatarImage, type AvatarImage, readAvatar, writeAvatar } from './avatars.js';
export { ApiUserViews, avatarUrl, noReplyAddress, toApiUser } from './convert.js';
export { type DirectoryAuth, type DirectorySignIn } from './directory.js';
export { UserEmailsService, isAcceptableEmail } from './emails.js';
export { EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH, assertSiteUrl, assertValidUsername } from './names.js';
export { UsersPort } from './port.js';
export { UserSchema, VisibilitySchema, type ApiUser, type UpdateUserAvatarOption } from './schemas.js';
export { UsersService } from './service.js';
export { GHOST_USER, GHOST_USER_ID } from './system.js';
export { UserType, Visibility, canSignIn, isOrganization, visibilityName, visibilityValue, type User, type UserBlocking, type UserTable, type UsersTables } from './tables.js';
export { canSeeAccount, userVisibilityFilter, userVisibleSql, type UserVisibilityFilter } from './visibility.js';
