import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';

/** The modes a collaboration can have, as the API names them (`owner` is not one: owners need no collaboration). */
export const COLLABORATOR_MODE_NAMES = ['read', 'write', 'admin'] as const;
export type CollaboratorModeName = (typeof COLLABORATOR_MODE_NAMES)[number];

export const AddCollaboratorOptionSchema = Type.Object(
  { permission: Type.Optional(StringEnum(COLLABORATOR_MODE_NAMES, { description: 'Permission level to grant the collaborator' })) },
  { $id: 'AddCollaboratorOption', description: 'AddCollaboratorOption options when adding a user as a collaborator of a repository' },
);
export type AddCollaboratorOption = Static<typeof AddCollaboratorOptionSchema>;

export const RepoCollaboratorPermissionSchema = Type.Object(
  {
    permission: Type.String({ description: 'Permission level of the collaborator' }),
    role_name: Type.String({ description: 'RoleName is the name of the permission role' }),
    user: UserSchema,
  },
  { $id: 'RepoCollaboratorPermission', description: 'RepoCollaboratorPermission to get repository permission for a collaborator' },
);
export type ApiRepoCollaboratorPermission = Static<typeof RepoCollaboratorPermissionSchema>;
