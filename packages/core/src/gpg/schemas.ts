import { Type, type Static } from '@sinclair/typebox';

/** Forgejo's `CreateGPGKeyOption`. */
export const CreateGPGKeyOptionSchema = Type.Object(
  {
    armored_public_key: Type.String({ description: 'An armored GPG key to add' }),
    armored_signature: Type.Optional(Type.String()),
  },
  { $id: 'CreateGPGKeyOption', description: 'CreateGPGKeyOption options create user GPG key' },
);
export type CreateGPGKeyOption = Static<typeof CreateGPGKeyOptionSchema>;

/** Forgejo's `VerifyGPGKeyOption`: the key id, and the verification token signed with it. */
export const VerifyGPGKeyOptionSchema = Type.Object(
  {
    key_id: Type.String({ description: 'An Signature for a GPG key token' }),
    armored_signature: Type.Optional(Type.String()),
  },
  { $id: 'VerifyGPGKeyOption', description: 'VerifyGPGKeyOption options verifies user GPG key' },
);
export type VerifyGPGKeyOption = Static<typeof VerifyGPGKeyOptionSchema>;

export const GPGKeyEmailSchema = Type.Object(
  { email: Type.String(), verified: Type.Boolean() },
  { $id: 'GPGKeyEmail', description: 'GPGKeyEmail an email attached to a GPGKey' },
);
export type ApiGPGKeyEmail = Static<typeof GPGKeyEmailSchema>;

const gpgKeyProperties = {
  id: Type.Integer({ format: 'int64' }),
  primary_key_id: Type.String(),
  key_id: Type.String(),
  public_key: Type.String(),
  emails: Type.Array(GPGKeyEmailSchema),
  can_sign: Type.Boolean(),
  can_encrypt_comms: Type.Boolean(),
  can_encrypt_storage: Type.Boolean(),
  can_certify: Type.Boolean(),
  verified: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
};
const description = 'GPGKey a user GPG key to sign commit and tag in repository';

/**
 * A subkey: a `GPGKey` whose own `subkeys` are empty. It carries the same `$id`, so the OpenAPI document refers to
 * `GPGKey` for `subkeys` items, as Forgejo's does, without a recursive schema.
 */
const GPGSubkeySchema = Type.Object({ ...gpgKeyProperties, subkeys: Type.Array(Type.Unknown(), { maxItems: 0 }) }, { $id: 'GPGKey', description });

/** The API `GPGKey`: a primary key with its subkeys. */
export const GPGKeySchema = Type.Object({ ...gpgKeyProperties, subkeys: Type.Array(GPGSubkeySchema) }, { $id: 'GPGKey', description });
export type ApiGPGKey = Static<typeof GPGKeySchema>;
export type ApiGPGSubkey = Static<typeof GPGSubkeySchema>;
