/**
 * The actions folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { actionsDomain, actionsTasksDomain } from './domain.js';
export { ARTIFACTS_SPACE, ArtifactsService, MAX_BLOCK_LIST_BYTES, blockListIds, type ArtifactDownload, type RuntimeTask, type SignedQuery } from './artifacts.js';
export { ArtifactStatus, type ActionArtifact, type ArtifactsTables } from './artifacts-tables.js';
export { ActionArtifactSchema, ArtifactListQuerySchema, type ApiActionArtifact } from './artifacts-schemas.js';
export { toApiActionArtifact } from './artifacts-convert.js';
export { runnerStatus, toApiActionRun, toApiActionRunJob, toApiActionRunner, toApiActionTask, toApiActionVariable, toApiSecret } from './convert.js';
export {
  ActionRunSchema,
  ActionTaskResponseSchema,
  DispatchWorkflowOptionSchema,
  DispatchWorkflowRunSchema,
  ListActionRunResponseSchema,
  ActionRunJobSchema,
  ActionRunJobStepSchema,
  ActionRunnerSchema,
  RegisterRunnerOptionsSchema,
  RegisterRunnerResponseSchema,
  RegistrationTokenSchema,
  type ApiActionRunJob,
  type ApiActionRunner,
  type ApiRegisterRunnerResponse,
  type ApiRegistrationToken,
  type RegisterRunnerOptions,
  type RunnerStatus,
  ActionVariableSchema,
  CreateOrUpdateSecretOptionSchema,
  CreateVariableOptionSchema,
  SecretSchema,
  UpdateVariableOptionSchema,
  type ApiActionVariable,
  type ApiSecret,
  type CreateOrUpdateSecretOption,
  type CreateVariableOption,
  type UpdateVariableOption,
} from './schemas.js';
export { ActionsService, type ActionsOwner } from './service.js';
export { RunsService, WORKFLOW_DIRS, actionsEnabled, type DetectPayload } from './runs.js';
export { SchedulesService } from './schedules.js';
export { TasksService, type ReportedLogLine, type ReportedStep, type ReportedTask, type TaskForRunner } from './tasks.js';
export { ActionStatus, isDone, statusName, statusOfName, type ActionStatusName } from './status.js';
export { RunHooks } from './run-hooks.js';
export { type RunDoneEvent } from './events.js';
export { type RunFilter, type StoredLogLine } from './runs-store.js';
export {
  REGISTRATION_TOKEN_INVALIDATED,
  REGISTRATION_TOKEN_NOT_FOUND,
  RunnersService,
  UNREGISTERED_RUNNER,
  type RegisteredRunner,
  type RunnerRegistration,
  type RunnersOwner,
} from './runners.js';
export { type ActionRun, type ActionRunJob, type ActionSchedule, type ActionScheduleSpec, type ActionRunner, type ActionRunnerToken, type ActionTask, type ActionTaskStep, type ActionVariable, type ActionsTables } from './tables.js';
