import { Type, type Static } from '@sinclair/typebox';
import { UserSchema } from '../users/index.js';
import { RepositorySchema } from '../repos/index.js';

/** Forgejo's `CreateKeyOption`: `read_only` matters for deploy keys only; a user key always grants write. */
export const CreateKeyOptionSchema = Type.Object(
  {
    title: Type.String({ description: 'Title of the key to add' }),
    key: Type.String({ description: 'An armored SSH key to add' }),
    read_only: Type.Optional(Type.Boolean({ description: 'Describe if the key has only read access or read/write' })),
  },
  { $id: 'CreateKeyOption', description: 'CreateKeyOption options when creating a key' },
);
export type CreateKeyOption = Static<typeof CreateKeyOptionSchema>;

/** The API `PublicKey`. `key_type`, `read_only` and `user` are filled for the owner and site administrators only. */
export const PublicKeySchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    key: Type.String(),
    url: Type.String(),
    title: Type.String(),
    fingerprint: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
    key_type: Type.Optional(Type.String()),
    read_only: Type.Optional(Type.Boolean()),
    verified: Type.Boolean(),
    user: Type.Optional(UserSchema),
  },
  { $id: 'PublicKey', description: 'PublicKey publickey is a user key to push code to repository' },
);
export type ApiPublicKey = Static<typeof PublicKeySchema>;

/**
 * The API `DeployKey`. `repository` is filled for site administrators and the repository's owner only, as Forgejo
 * does; `key_id` is the `public_key` the deploy key uses (shared by the repositories it deploys).
 */
export const DeployKeySchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    key_id: Type.Integer({ format: 'int64' }),
    key: Type.String(),
    url: Type.String(),
    title: Type.String(),
    fingerprint: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    read_only: Type.Boolean(),
    repository: Type.Optional(RepositorySchema),
  },
  { $id: 'DeployKey', description: 'DeployKey a deploy key' },
);
export type ApiDeployKey = Static<typeof DeployKeySchema>;
