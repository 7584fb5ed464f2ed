import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { UserSchema } from '../users/index.js';
import { RepositorySchema } from '../repos/index.js';

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

/** Forgejo's `ActionRun`: a workflow run. */
export const ActionRunSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64', description: 'the action run id' }),
    title: Type.String({ description: 'the action run\'s title' }),
    repository: Type.Optional(RepositorySchema),
    owner_id: Type.Optional(Type.Integer({ format: 'int64' })),
    workflow_id: Type.String({ description: 'the name of workflow file' }),
    index_in_repo: Type.Integer({ format: 'int64', description: 'a unique number for each run of a repository' }),
    trigger_user: Type.Optional(Type.Union([UserSchema, Type.Null()])),
    ScheduleID: Type.Integer({ format: 'int64', description: 'the cron id for the schedule trigger' }),
    prettyref: Type.String({ description: 'the commit/tag/… the action run ran on' }),
    is_ref_deleted: Type.Boolean({ description: 'has the commit/tag/… the action run ran on been deleted' }),
    commit_sha: Type.String({ description: 'the commit sha the action run ran on' }),
    is_fork_pull_request: Type.Boolean({ description: 'If this is triggered by a PR from a forked repository or an untrusted user, we need to check if it is approved and limit permissions when running the workflow.' }),
    need_approval: Type.Boolean({ description: 'may need approval if it\'s a fork pull request' }),
    approved_by: Type.Integer({ format: 'int64', description: 'who approved this action run' }),
    event: Type.String({ description: 'the webhook event that causes the workflow to run' }),
    event_payload: Type.String({ description: 'the payload of the webhook event that causes the workflow to run' }),
    trigger_event: Type.String({ description: 'the trigger event defined in the `on` configuration of the triggered workflow' }),
    status: Type.String({ description: 'the current status of this run' }),
    started: Type.String({ format: 'date-time', description: 'when the action run was started' }),
    stopped: Type.String({ format: 'date-time', description: 'when the action run was stopped' }),
    created: Type.String({ format: 'date-time', description: 'when the action run was created' }),
    updated: Type.String({ format: 'date-time', description: 'when the action run was last updated' }),
    duration: Type.Integer({ format: 'int64', description: 'how long the action run ran for (nanoseconds)' }),
    html_url: Type.String({ description: 'the url of this action run' }),
    pre_execution_error: Type.Optional(Type.String({ description: "RepoHost's own, present only when the workflow could not run at all: why (its file does not parse, its jobs' needs are wrong)" })),
  },
  { $id: 'ActionRun', description: 'ActionRun represents an action run' },
);
export type ApiActionRun = Static<typeof ActionRunSchema>;

/** Forgejo's `ListActionRunResponse`. */
export const ListActionRunResponseSchema = Type.Object(
  {
    total_count: Type.Integer({ format: 'int64' }),
    workflow_runs: Type.Array(ActionRunSchema),
  },
  { $id: 'ListActionRunResponse', description: 'ListActionRunResponse return a list of ActionRun' },
);

/** Forgejo's `ActionTask`: a task (one attempt of a job) as the task list shows it. */
export const ActionTaskSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    head_branch: Type.String(),
    head_sha: Type.String(),
    run_number: Type.Integer({ format: 'int64' }),
    event: Type.String(),
    display_title: Type.String(),
    status: Type.String(),
    workflow_id: Type.String(),
    url: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    run_started_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'ActionTask', description: 'ActionTask represents a ActionTask' },
);
export type ApiActionTask = Static<typeof ActionTaskSchema>;

/** Forgejo's `ActionTaskResponse`. */
export const ActionTaskResponseSchema = Type.Object(
  {
    total_count: Type.Integer({ format: 'int64' }),
    workflow_runs: Type.Array(ActionTaskSchema),
  },
  { $id: 'ActionTaskResponse', description: 'ActionTaskResponse returns a ActionTask' },
);

/** Forgejo's `DispatchWorkflowOption`: `ref` is required. */
export const DispatchWorkflowOptionSchema = Type.Object(
  {
    ref: Type.String({ description: 'Git reference for the workflow' }),
    inputs: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Input keys and values configured in the workflow file.' })),
    return_run_info: Type.Optional(Type.Boolean({ default: false, description: 'Flag to return the run info' })),
  },
  { $id: 'DispatchWorkflowOption', description: 'DispatchWorkflowOption options when dispatching a workflow' },
);
export type DispatchWorkflowOption = Static<typeof DispatchWorkflowOptionSchema>;

/** Forgejo's `DispatchWorkflowRun`. */
export const DispatchWorkflowRunSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64', description: 'the workflow run id' }),
    run_number: Type.Integer({ format: 'int64', description: 'a unique number for each run of a repository' }),
    jobs: Type.Array(Type.String(), { description: 'the jobs name' }),
  },
  { $id: 'DispatchWorkflowRun', description: 'DispatchWorkflowRun represents a workflow run' },
);
export type ApiDispatchWorkflowRun = Static<typeof DispatchWorkflowRunSchema>;
