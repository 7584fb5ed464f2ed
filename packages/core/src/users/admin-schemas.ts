import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_MAX_LENGTH } from './names.js';
import { VisibilitySchema } from './schemas.js';

/** The admin API's `EditUserOption`: every field optional; what is absent stays as it is. */
export const EditUserOptionSchema = Type.Object(
  {
    /** With `login_name`: both or neither (Forgejo's rule). */
    source_id: Type.Optional(Type.Integer({ format: 'int64' })),
    login_name: Type.Optional(Type.String()),
    /**
     * Becomes the primary address (added to the account's addresses if it is new). Checked by the service, not
     * the schema: Forgejo answers a malformed address with 400, not 422.
     */
    email: Type.Optional(Type.String({ maxLength: EMAIL_MAX_LENGTH })),
    full_name: Type.Optional(Type.String({ maxLength: 100 })),
    /** Empty: unchanged. */
    password: Type.Optional(Type.String({ maxLength: 255 })),
    must_change_password: Type.Optional(Type.Boolean()),
    website: Type.Optional(Type.String({ maxLength: 255 })),
    location: Type.Optional(Type.String({ maxLength: 50 })),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    pronouns: Type.Optional(Type.String({ maxLength: 255 })),
    active: Type.Optional(Type.Boolean()),
    admin: Type.Optional(Type.Boolean()),
    /** May edit repositories' server-side git hooks (only while `[security] DISABLE_GIT_HOOKS` is false). */
    allow_git_hook: Type.Optional(Type.Boolean()),
    /** Accepted for compatibility; RepoHost has no local-path imports. */
    allow_import_local: Type.Optional(Type.Boolean()),
    /** Repositories the account may create; -1: `[repository] MAX_CREATION_LIMIT`. */
    max_repo_creation: Type.Optional(Type.Integer({ format: 'int64' })),
    prohibit_login: Type.Optional(Type.Boolean()),
    allow_create_organization: Type.Optional(Type.Boolean()),
    restricted: Type.Optional(Type.Boolean()),
    visibility: Type.Optional(VisibilitySchema),
    hide_email: Type.Optional(Type.Boolean()),
  },
  { $id: 'EditUserOption', description: 'EditUserOption edit user options' },
);
export type EditUserOption = Static<typeof EditUserOptionSchema>;

export const RenameUserOptionSchema = Type.Object(
  {
    /** New username for this user. This name cannot be in use yet by any other user. */
    new_username: Type.String(),
  },
  { $id: 'RenameUserOption', description: 'RenameUserOption options when renaming a user' },
);
export type RenameUserOption = Static<typeof RenameUserOptionSchema>;

/** How `/admin/users` orders its page (Forgejo's names); anything else is `alphabetically`. */
export const ADMIN_USER_SORTS = ['oldest', 'newest', 'alphabetically', 'reversealphabetically', 'recentupdate', 'leastupdate'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];

/** The filters of `/admin/users` (individual accounts only). */
export interface AdminUserSearch {
  /** Accounts of this login source (0: local accounts). */
  sourceId?: number;
  /** Exactly this login name. */
  loginName?: string;
  /** RepoHost has no second factor yet: `true` finds nobody, `false` everybody. */
  twoFactorEnabled?: boolean;
  isAdmin?: boolean;
  sort?: string;
}
