import { Type, type Static } from '@sinclair/typebox';
import { RepositoryMetaSchema } from '../repos/index.js';

export const CreateAccessTokenOptionSchema = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    scopes: Type.Optional(Type.Array(Type.String())),
    repositories: Type.Optional(
      Type.Array(Type.Object({ owner: Type.String(), name: Type.String() }, { $id: 'RepoTargetOption' })),
    ),
  },
  { $id: 'CreateAccessTokenOption', description: 'CreateAccessTokenOption options when create access token' },
);
export type CreateAccessTokenOption = Static<typeof CreateAccessTokenOptionSchema>;

/** The API `AccessToken`: `sha1` carries the token only in the creation response. */
export const AccessTokenSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    sha1: Type.String(),
    token_last_eight: Type.String(),
    scopes: Type.Array(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    /** The repositories a repository-limited token is for; null for a token not limited to some. */
    repositories: Type.Union([Type.Array(RepositoryMetaSchema), Type.Null()]),
  },
  { $id: 'AccessToken' },
);
export type ApiAccessToken = Static<typeof AccessTokenSchema>;
