import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';

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

/** Forgejo's `RegistrationToken` (of `routers/api/v1/shared`): a token a runner registers with. */
export const RegistrationTokenSchema = Type.Object(
  { token: Type.String() },
  { $id: 'RegistrationToken', description: 'RegistrationToken is a string used to register a runner with a server' },
);
export type ApiRegistrationToken = Static<typeof RegistrationTokenSchema>;

/** The statuses Forgejo shows for a runner (`ActionRunner.StatusName`). */
export const RUNNER_STATUSES = ['offline', 'idle', 'active'] as const;
export type RunnerStatus = (typeof RUNNER_STATUSES)[number];

/** Forgejo's `ActionRunner`. */
export const ActionRunnerSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64', description: 'ID uniquely identifies this runner.' }),
    uuid: Type.String({ description: 'UUID uniquely identifies this runner.' }),
    name: Type.String({ description: 'Name of the runner; not unique.' }),
    owner_id: Type.Integer({
      format: 'int64',
      description: 'OwnerID is the identifier of the user or organization this runner belongs to. O if the runner is owned by a\nrepository.',
    }),
    repo_id: Type.Integer({
      format: 'int64',
      description: 'RepoID is the identifier of the repository this runner belongs to. 0 if the runner belongs to a user or\norganization.',
    }),
    description: Type.String({ description: 'Description provides optional details about this runner.' }),
    labels: Type.Array(Type.String(), { description: 'Labels is a list of labels attached to this runner.' }),
    status: StringEnum(RUNNER_STATUSES, { description: 'Status indicates whether this runner is offline, or active, for example.' }),
    version: Type.String({ description: 'Version is the self-reported version string of Forgejo Runner.' }),
    ephemeral: Type.Boolean({ description: 'Indicates if runner is ephemeral runner' }),
  },
  { $id: 'ActionRunner', description: 'ActionRunner represents a runner' },
);
export type ApiActionRunner = Static<typeof ActionRunnerSchema>;

/** Forgejo's `RegisterRunnerOptions`: `name` is required (absent or empty: 422). */
export const RegisterRunnerOptionsSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Name of the runner to register. The name of the runner does not have to be unique.' }),
    description: Type.Optional(Type.String({ description: 'Description of the runner to register.' })),
    ephemeral: Type.Optional(
      Type.Boolean({ description: 'Register as ephemeral runner https://forgejo.org/docs/latest/admin/actions/security/#ephemeral-runners' }),
    ),
  },
  { $id: 'RegisterRunnerOptions', title: 'RegisterRunnerOptions declares the accepted options for registering runners.' },
);
export type RegisterRunnerOptions = Static<typeof RegisterRunnerOptionsSchema>;

/** Forgejo's `RegisterRunnerResponse`: the runner's token is shown this once. */
export const RegisterRunnerResponseSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    uuid: Type.String(),
    token: Type.String(),
  },
  { $id: 'RegisterRunnerResponse', title: 'RegisterRunnerResponse contains the details of the just registered runner.' },
);
export type ApiRegisterRunnerResponse = Static<typeof RegisterRunnerResponseSchema>;

/** Forgejo's `ActionRunJobStep`: a step of a job, "Set up job" first (number 0) and "Complete job" last. */
export const ActionRunJobStepSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'step name' })),
    number: Type.Optional(Type.Integer({ format: 'int64', description: "position in the job's step list" })),
    status: Type.Optional(Type.String({ description: 'step status (success, failure, running, waiting, skipped, cancelled, ...)' })),
    started: Type.Optional(Type.String({ format: 'date-time', description: 'when the step started' })),
    stopped: Type.Optional(Type.String({ format: 'date-time', description: 'when the step stopped' })),
  },
  { $id: 'ActionRunJobStep', description: "ActionRunJobStep is a step in a workflow job's execution." },
);

/** Forgejo's `ActionRunJob`: a job of a workflow run, as the lists of jobs waiting for runners show it. */
export const ActionRunJobSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64', description: 'Identifier of this job.' }),
    run_id: Type.Optional(Type.Integer({ format: 'int64', description: 'Identifier of the workflow run this job belongs to.' })),
    repo_id: Type.Integer({ format: 'int64', description: 'the repository id' }),
    owner_id: Type.Integer({ format: 'int64', description: 'the owner id' }),
    name: Type.String({ description: 'the action run job name' }),
    needs: Type.Array(Type.String(), { description: 'the action run job needed ids' }),
    runs_on: Type.Array(Type.String(), { description: 'the action run job labels to run on' }),
    task_id: Type.Integer({ format: 'int64', description: 'the action run job latest task id' }),
    status: Type.String({ description: 'the action run job status' }),
    attempt: Type.Optional(Type.Integer({ format: 'int64', description: 'How many times the job has been attempted including the current attempt.' })),
    handle: Type.Optional(Type.String({ description: 'Opaque identifier that uniquely identifies a single attempt of a job.' })),
    html_url: Type.Optional(Type.String({ description: 'HTMLURL is the URL where a user can view the job using their browser.' })),
    steps: Type.Optional(Type.Array(ActionRunJobStepSchema)),
  },
  { $id: 'ActionRunJob', description: 'ActionRunJob represents a job of a run' },
);
export type ApiActionRunJob = Static<typeof ActionRunJobSchema>;
