import { Type, type Static } from '@sinclair/typebox';

/** The API `PushMirror` record. Credentials are never part of it. */
export const PushMirrorSchema = Type.Object(
  {
    repo_name: Type.String(),
    remote_name: Type.String(),
    remote_address: Type.String(),
    created: Type.String({ format: 'date-time' }),
    /** null until the first push attempt ended. */
    last_update: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    last_error: Type.String(),
    /** A Go duration as Go prints it (`8h0m0s`, `0s`). */
    interval: Type.String(),
    sync_on_commit: Type.Boolean(),
    branch_filter: Type.String(),
    public_key: Type.String(),
  },
  { $id: 'PushMirror', description: 'PushMirror represents information of a push mirror' },
);
export type ApiPushMirror = Static<typeof PushMirrorSchema>;

export const CreatePushMirrorOptionSchema = Type.Object(
  {
    remote_address: Type.Optional(Type.String()),
    remote_username: Type.Optional(Type.String()),
    remote_password: Type.Optional(Type.String()),
    /** A Go duration (`8h`, `1h30m`, `0` to push only on demand and on commit). */
    interval: Type.Optional(Type.String()),
    sync_on_commit: Type.Optional(Type.Boolean()),
    branch_filter: Type.Optional(Type.String()),
    use_ssh: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreatePushMirrorOption', description: 'CreatePushMirrorOption represents need information to create a push mirror of a repository.' },
);
export type CreatePushMirrorOption = Static<typeof CreatePushMirrorOptionSchema>;
