import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/validate.js';
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
