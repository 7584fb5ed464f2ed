import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { VisibilitySchema } from '../users/index.js';
import { EMAIL_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../users/index.js';

/** The API `Organization` record. */
export const OrganizationSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    full_name: Type.String(),
    email: Type.String(),
    avatar_url: Type.String(),
    description: Type.String(),
    website: Type.String(),
    location: Type.String(),
    visibility: Type.String(),
    repo_admin_change_team_access: Type.Boolean(),
    /** Deprecated: the same as `name`. */
    username: Type.String(),
    created: Type.String({ format: 'date-time' }),
  },
  { $id: 'Organization', description: 'Organization represents an organization' },
);
export type ApiOrganization = Static<typeof OrganizationSchema>;

export const CreateOrgOptionSchema = Type.Object(
  {
    username: Type.String({ maxLength: USERNAME_MAX_LENGTH }),
    full_name: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Type.String({ maxLength: EMAIL_MAX_LENGTH })),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    website: Type.Optional(Type.String({ maxLength: 255 })),
    location: Type.Optional(Type.String({ maxLength: 50 })),
    visibility: Type.Optional(StringEnum(['public', 'limited', 'private'] as const, { description: 'possible values are `public` (default), `limited` or `private`' })),
    repo_admin_change_team_access: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreateOrgOption', description: 'CreateOrgOption options for creating an organization' },
);
export type CreateOrgOption = Static<typeof CreateOrgOptionSchema>;

export const EditOrgOptionSchema = Type.Object(
  {
    full_name: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Type.String({ maxLength: EMAIL_MAX_LENGTH })),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    website: Type.Optional(Type.String({ maxLength: 255 })),
    location: Type.Optional(Type.String({ maxLength: 50 })),
    visibility: Type.Optional(VisibilitySchema),
    repo_admin_change_team_access: Type.Optional(Type.Boolean()),
  },
  { $id: 'EditOrgOption', description: 'EditOrgOption options for editing an organization' },
);
export type EditOrgOption = Static<typeof EditOrgOptionSchema>;

/** What an account may do in an organization (`GET /users/{username}/orgs/{org}/permissions`). */
export const OrganizationPermissionsSchema = Type.Object(
  {
    is_owner: Type.Boolean(),
    is_admin: Type.Boolean(),
    can_write: Type.Boolean(),
    can_read: Type.Boolean(),
    can_create_repository: Type.Boolean(),
  },
  { $id: 'OrganizationPermissions', description: 'OrganizationPermissions list different users permissions on an organization' },
);
export type ApiOrganizationPermissions = Static<typeof OrganizationPermissionsSchema>;

export const RenameOrgOptionSchema = Type.Object(
  {
    /** New username for this org. This name cannot be in use yet by any other user. */
    new_name: Type.String({ description: 'New username for this org. This name cannot be in use yet by any other user.' }),
  },
  { $id: 'RenameOrgOption', description: 'RenameOrgOption options when renaming an organization' },
);
export type RenameOrgOption = Static<typeof RenameOrgOptionSchema>;
