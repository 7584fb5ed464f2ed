import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH } from './names.js';
import { VISIBILITY_NAMES } from './tables.js';

/** `public`, `limited` or `private`. */
export const VisibilitySchema = StringEnum(VISIBILITY_NAMES);

/** The API `User` record. */
export const UserSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    login: Type.String(),
    /** Kept for older clients, as Forgejo does; same as `login`. */
    username: Type.String(),
    login_name: Type.String(),
    source_id: Type.Integer({ format: 'int64' }),
    full_name: Type.String(),
    email: Type.String(),
    avatar_url: Type.String(),
    html_url: Type.String(),
    language: Type.String(),
    is_admin: Type.Boolean(),
    last_login: Type.String({ format: 'date-time' }),
    created: Type.String({ format: 'date-time' }),
    restricted: Type.Boolean(),
    active: Type.Boolean(),
    prohibit_login: Type.Boolean(),
    location: Type.String(),
    pronouns: Type.String(),
    website: Type.String(),
    description: Type.String(),
    visibility: VisibilitySchema,
    followers_count: Type.Integer({ format: 'int64' }),
    following_count: Type.Integer({ format: 'int64' }),
    starred_repos_count: Type.Integer({ format: 'int64' }),
  },
  { $id: 'User', description: 'User represents a user' },
);
export type ApiUser = Static<typeof UserSchema>;

/** Options for creating an account (the admin API's `CreateUserOption`, also used by the CLI). */
export const CreateUserOptionSchema = Type.Object(
  {
    username: Type.String({ maxLength: USERNAME_MAX_LENGTH }),
    email: Type.Optional(Type.String({ maxLength: EMAIL_MAX_LENGTH, format: 'email' })),
    password: Type.Optional(Type.String({ maxLength: 255 })),
    full_name: Type.Optional(Type.String({ maxLength: 100 })),
    login_name: Type.Optional(Type.String()),
    source_id: Type.Optional(Type.Integer({ format: 'int64' })),
    must_change_password: Type.Optional(Type.Boolean()),
    send_notify: Type.Optional(Type.Boolean()),
    restricted: Type.Optional(Type.Boolean()),
    visibility: Type.Optional(VisibilitySchema),
    created_at: Type.Optional(Type.String({ format: 'date-time' })),
    /** Not in Forgejo's API option (it is a CLI flag there); accepted here so the CLI can use this schema. */
    admin: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreateUserOption' },
);
export type CreateUserOption = Static<typeof CreateUserOptionSchema>;

/** The signed-in user's own settings. */
export const UserSettingsSchema = Type.Object(
  {
    full_name: Type.String(),
    website: Type.String(),
    description: Type.String(),
    location: Type.String(),
    pronouns: Type.String(),
    language: Type.String(),
    theme: Type.String(),
    diff_view_style: Type.String(),
    enable_repo_unit_hints: Type.Boolean(),
    /** Privacy */
    hide_email: Type.Boolean(),
    hide_pronouns: Type.Boolean(),
    hide_activity: Type.Boolean(),
  },
  { $id: 'UserSettings', description: 'UserSettings represents user settings' },
);
export type ApiUserSettings = Static<typeof UserSettingsSchema>;

/** What `PATCH /user/settings` changes: the fields given. Lengths are checked in characters by the service. */
export const UserSettingsOptionsSchema = Type.Object(
  {
    full_name: Type.Optional(Type.String()),
    website: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    location: Type.Optional(Type.String()),
    pronouns: Type.Optional(Type.String()),
    language: Type.Optional(Type.String()),
    theme: Type.Optional(Type.String()),
    diff_view_style: Type.Optional(Type.String()),
    enable_repo_unit_hints: Type.Optional(Type.Boolean()),
    /** Privacy */
    hide_email: Type.Optional(Type.Boolean()),
    hide_pronouns: Type.Optional(Type.Boolean()),
    hide_activity: Type.Optional(Type.Boolean()),
  },
  { $id: 'UserSettingsOptions', description: 'UserSettingsOptions represents options to change user settings' },
);
export type UserSettingsOptions = Static<typeof UserSettingsOptionsSchema>;

/** An email address of an account. */
export const EmailSchema = Type.Object(
  {
    email: Type.String({ format: 'email' }),
    verified: Type.Boolean(),
    primary: Type.Boolean(),
    user_id: Type.Integer({ format: 'int64' }),
    username: Type.String(),
  },
  { $id: 'Email', description: 'Email an email address belonging to a user' },
);
export type ApiEmail = Static<typeof EmailSchema>;

export const CreateEmailOptionSchema = Type.Object(
  { emails: Type.Optional(Type.Array(Type.String(), { description: 'email addresses to add' })) },
  { $id: 'CreateEmailOption', description: 'CreateEmailOption options when creating email addresses' },
);
export type CreateEmailOption = Static<typeof CreateEmailOptionSchema>;

export const DeleteEmailOptionSchema = Type.Object(
  { emails: Type.Optional(Type.Array(Type.String(), { description: 'email addresses to delete' })) },
  { $id: 'DeleteEmailOption', description: 'DeleteEmailOption options when deleting email addresses' },
);
export type DeleteEmailOption = Static<typeof DeleteEmailOptionSchema>;

export const UpdateUserAvatarOptionSchema = Type.Object(
  { image: Type.Optional(Type.String({ description: 'image must be base64 encoded' })) },
  { $id: 'UpdateUserAvatarOption', description: 'UpdateUserAvatarUserOption options when updating the user avatar' },
);
export type UpdateUserAvatarOption = Static<typeof UpdateUserAvatarOptionSchema>;

/** The query of `GET /users/search` (besides `page` and `limit`). */
export const UserSearchQuerySchema = Type.Object({
  q: Type.Optional(Type.String({ description: 'keyword' })),
  uid: Type.Optional(Type.Integer({ format: 'int64', description: 'ID of the user to search for' })),
  /** Unknown orders fall back to the default, as Forgejo reads them, so this is a plain string. */
  sort: Type.Optional(Type.String({ description: 'sort order of results', enum: ['oldest', 'newest', 'alphabetically', 'reversealphabetically', 'recentupdate', 'leastupdate'] })),
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results' })),
});
export type UserSearchQuery = Static<typeof UserSearchQuerySchema>;

/** `{"ok": true, "data": [User…]}`. */
export const UserSearchResultsSchema = Type.Object(
  { ok: Type.Boolean(), data: Type.Array(UserSchema) },
  { title: 'UserSearchResults', description: 'SearchResults of a successful search' },
);
export type ApiUserSearchResults = Static<typeof UserSearchResultsSchema>;
