import { Type, type Static } from '@sinclair/typebox';

const LINE_ENDINGS = 'Special characters will be retained. Line endings will be normalized to LF to match the behaviour of browsers. Encode the data with Base64 if line endings should be retained.';

/** Forgejo's `CreateOrUpdateSecretOption`: `data` is `binding:"Required"` (absent or empty: 422). */
export const CreateOrUpdateSecretOptionSchema = Type.Object(
  {
    data: Type.String({ minLength: 1, description: `Data of the secret. ${LINE_ENDINGS}` }),
  },
  { $id: 'CreateOrUpdateSecretOption', description: 'CreateOrUpdateSecretOption defines the properties of the secret to create or update.' },
);
export type CreateOrUpdateSecretOption = Static<typeof CreateOrUpdateSecretOptionSchema>;

/** Forgejo's `Secret`: a secret's name and when it was created; its value is never shown. */
export const SecretSchema = Type.Object(
  {
    name: Type.String({ description: "the secret's name" }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Secret', description: 'Secret represents a secret' },
);
export type ApiSecret = Static<typeof SecretSchema>;

/** Forgejo's `CreateVariableOption`: `value` is `binding:"Required"`. */
export const CreateVariableOptionSchema = Type.Object(
  {
    value: Type.String({ minLength: 1, description: `Value of the variable to create. ${LINE_ENDINGS}` }),
  },
  { $id: 'CreateVariableOption', description: 'CreateVariableOption defines the properties of the variable to create.' },
);
export type CreateVariableOption = Static<typeof CreateVariableOptionSchema>;

/** Forgejo's `UpdateVariableOption`: `value` is required; an absent or empty `name` keeps the variable's name. */
export const UpdateVariableOptionSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({ description: "New name for the variable. If the field is empty, the variable name won't be updated. Forgejo will convert it to uppercase." }),
    ),
    value: Type.String({ minLength: 1, description: `Value of the variable to update. ${LINE_ENDINGS}` }),
  },
  { $id: 'UpdateVariableOption', description: 'UpdateVariableOption defines the properties of the variable to update.' },
);
export type UpdateVariableOption = Static<typeof UpdateVariableOptionSchema>;

/** Forgejo's `ActionVariable`. */
export const ActionVariableSchema = Type.Object(
  {
    owner_id: Type.Integer({ format: 'int64', description: 'the owner to which the variable belongs' }),
    repo_id: Type.Integer({ format: 'int64', description: 'the repository to which the variable belongs' }),
    name: Type.String({ description: 'the name of the variable' }),
    data: Type.String({ description: 'the value of the variable' }),
  },
  { $id: 'ActionVariable', description: 'ActionVariable return value of the query API' },
);
export type ApiActionVariable = Static<typeof ActionVariableSchema>;
