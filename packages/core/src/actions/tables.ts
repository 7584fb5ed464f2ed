import type { Generated, Selectable } from 'kysely';

/**
 * An Actions secret (Forgejo's `secret`): a repository's (`repo_id`, `owner_id` 0) or an account's (`owner_id`,
 * `repo_id` 0), never both and never neither. The value is encrypted under `[security] SECRET_KEY` and never shown.
 */
export interface ActionSecretTable {
  id: Generated<number>;
  owner_id: number;
  repo_id: number;
  /** Upper-case, Forgejo's name rules (`names.ts`); unique per owner or repository. */
  name: string;
  /** The value, line endings normalized to LF, encrypted (`security/secrets.ts`, purpose `SECRET_PURPOSE`). */
  data: string;
  created_unix: number;
}

/** An Actions variable (Forgejo's `action_variable`): scoped as a secret is, its value stored and shown as it is. */
export interface ActionVariableTable {
  id: Generated<number>;
  owner_id: number;
  repo_id: number;
  /** Upper-case, Forgejo's name rules (`names.ts`); unique per owner or repository. */
  name: string;
  data: string;
  created_unix: number;
  updated_unix: number;
}

/**
 * A registration token for runners (Forgejo's `action_runner_token`): global (`owner_id` and `repo_id` 0), an
 * account's (`owner_id`) or a repository's (`repo_id`), never both. The latest row of a scope is the one shown; a
 * reset deactivates every row of the scope and adds a new one. The token is shown again on every read, so it is kept
 * encrypted (not in clear as Forgejo keeps it) and found by its SHA-256 hash.
 */
export interface ActionRunnerTokenTable {
  id: Generated<number>;
  owner_id: number;
  repo_id: number;
  /** Hex SHA-256 of the token: how a runner's Register finds it (unique). */
  token_hash: string;
  /** The token, encrypted (`security/secrets.ts`, purpose `RUNNER_TOKEN_PURPOSE`). */
  token_encrypted: string;
  /** 1 while the token may register runners; 0 once a newer token replaced it. */
  is_active: number;
  created_unix: number;
  updated_unix: number;
}

/**
 * A runner (Forgejo's `action_runner`): scoped as its registration token was (global, an account's or a
 * repository's). Its own token is only ever checked, so only a salted hash of it is kept.
 */
export interface ActionRunnerTable {
  id: Generated<number>;
  /** Unique; the runner names itself with it (`x-runner-uuid`). */
  uuid: string;
  /** At most 255 bytes; not unique. */
  name: string;
  /** What the runner said it is, at most 64 characters. */
  version: string;
  owner_id: number;
  repo_id: number;
  description: string;
  /** 1 when the runner takes one job and is then removed. */
  ephemeral: number;
  /** HMAC-SHA-256 of the runner's token under `token_salt` (hex). */
  token_hash: string;
  token_salt: string;
  /** The labels the runner declared, a JSON array of strings. */
  agent_labels: string;
  /** When the runner last asked for work (0: never); offline a minute after. */
  last_online: number;
  /** When the runner last did work (0: never); idle ten seconds after. */
  last_active: number;
  created_unix: number;
  updated_unix: number;
}

/**
 * A workflow run (Forgejo's `action_run`): one workflow file of one commit, started by one event. `index` numbers the
 * repository's runs from 1; `trigger_key` names the event that made it (unique per repository), so a detection that
 * runs again after a crash finds the run made instead of making another.
 */
export interface ActionRunTable {
  id: Generated<number>;
  repo_id: number;
  owner_id: number;
  index: number;
  title: string;
  /** The workflow's file name under its folder (`ci.yml`). */
  workflow_id: string;
  trigger_user_id: number;
  schedule_id: number;
  /** The full ref the run is for (`refs/heads/main`, `refs/pull/3/head`). */
  ref: string;
  commit_sha: string;
  /** The event the workflow declared and matched (`push`, `pull_request`, `workflow_dispatch`, `schedule`). */
  event: string;
  /** The event that happened (`push`, `pull_request`, …); differs from `event` only for `pull_request_target`. */
  trigger_event: string;
  /** The event's webhook payload as JSON (the runner's `github.event`). */
  event_payload: string;
  trigger_key: string;
  is_fork_pull_request: number;
  /** Why the workflow could not run (it does not parse, its jobs' needs are wrong); '' when it could. */
  error: string;
  /** `ActionStatus` (status.ts). */
  status: number;
  started: number;
  stopped: number;
  created: number;
  updated: number;
}

/** A job of a run (Forgejo's `action_run_job`): one job of the workflow, one matrix combination. */
export interface ActionRunJobTable {
  id: Generated<number>;
  run_id: number;
  repo_id: number;
  owner_id: number;
  commit_sha: string;
  /** As shown: the job's name with its matrix values (`build (1, linux)`). */
  name: string;
  /** The job's key in the workflow (`build`). */
  job_id: string;
  /** Tasks made of it so far (each rerun adds one). */
  attempt: number;
  /** The single-job workflow the runner receives. */
  workflow_payload: string;
  /** JSON array of the job keys it needs. */
  needs: string;
  /** JSON array of the labels a runner must have. */
  runs_on: string;
  /** The current attempt's task (0: none yet). */
  task_id: number;
  status: number;
  started: number;
  stopped: number;
  created: number;
  updated: number;
}

/**
 * A task (Forgejo's `action_task`): one attempt of a job, taken by one runner. Its token (the run's `GITHUB_TOKEN`)
 * is kept as a salted hash found by its last eight characters.
 */
export interface ActionTaskTable {
  id: Generated<number>;
  job_id: number;
  attempt: number;
  runner_id: number;
  status: number;
  started: number;
  stopped: number;
  repo_id: number;
  owner_id: number;
  commit_sha: string;
  token_hash: string;
  token_salt: string;
  token_last_eight: string;
  /** Log lines received (the next line's index). */
  log_length: number;
  /** Bytes of log content received. */
  log_size: number;
  /** 1 once the runner said it sends no more lines. */
  log_done: number;
  created: number;
  updated: number;
}

/** A step of a task as the runner reports it (Forgejo's `action_task_step`). */
export interface ActionTaskStepTable {
  id: Generated<number>;
  task_id: number;
  index: number;
  name: string;
  status: number;
  log_index: number;
  log_length: number;
  started: number;
  stopped: number;
}

/** A job output a task reported (Forgejo's `action_task_output`); the first value of a key stays. */
export interface ActionTaskOutputTable {
  id: Generated<number>;
  task_id: number;
  output_key: string;
  output_value: string;
}

/** One log line of a task, secrets masked (`line` counts from 0). */
export interface ActionTaskLogTable {
  task_id: number;
  line: number;
  /** Milliseconds since the epoch, as the runner stamped the line. */
  time: number;
  content: string;
}

/** The last run number given in a repository (Forgejo's runs take `index` from a counter too). */
export interface ActionRunIndexTable {
  repo_id: number;
  last_index: number;
}

/** A scope's tasks version (Forgejo's `action_tasks_version`): it grows whenever a job may have become runnable. */
export interface ActionTasksVersionTable {
  owner_id: number;
  repo_id: number;
  version: number;
}

/** A scheduled workflow of a repository's default branch (Forgejo's `action_schedule`), its content kept to run it. */
export interface ActionScheduleTable {
  id: Generated<number>;
  repo_id: number;
  owner_id: number;
  title: string;
  workflow_dir: string;
  workflow_id: string;
  /** Who pushed the commit the plan was read from. */
  trigger_user_id: number;
  ref: string;
  commit_sha: string;
  event_payload: string;
  content: string;
  created: number;
  updated: number;
}

/** One cron spec of a scheduled workflow and when it is next due (Forgejo's `action_schedule_spec`). */
export interface ActionScheduleSpecTable {
  id: Generated<number>;
  repo_id: number;
  schedule_id: number;
  spec: string;
  /** Unix seconds. */
  next: number;
  prev: number;
}

/** One row while the plans are removed because `[actions] ENABLED` is off. */
export interface ActionSchedulesSuspendedTable {
  id: number;
  since: number;
}

/** The tables the actions domain owns. */
export interface ActionsTables {
  secret: ActionSecretTable;
  action_variable: ActionVariableTable;
  action_runner_token: ActionRunnerTokenTable;
  action_runner: ActionRunnerTable;
  action_run: ActionRunTable;
  action_run_job: ActionRunJobTable;
  action_task: ActionTaskTable;
  action_task_step: ActionTaskStepTable;
  action_task_output: ActionTaskOutputTable;
  action_task_log: ActionTaskLogTable;
  action_tasks_version: ActionTasksVersionTable;
  action_run_index: ActionRunIndexTable;
  action_schedule: ActionScheduleTable;
  action_schedule_spec: ActionScheduleSpecTable;
  action_schedules_suspended: ActionSchedulesSuspendedTable;
}

export type ActionSecret = Selectable<ActionSecretTable>;
export type ActionVariable = Selectable<ActionVariableTable>;
export type ActionRunnerToken = Selectable<ActionRunnerTokenTable>;
export type ActionRunner = Selectable<ActionRunnerTable>;
export type ActionRun = Selectable<ActionRunTable>;
export type ActionRunJob = Selectable<ActionRunJobTable>;
export type ActionTask = Selectable<ActionTaskTable>;
export type ActionTaskStep = Selectable<ActionTaskStepTable>;
export type ActionSchedule = Selectable<ActionScheduleTable>;
export type ActionScheduleSpec = Selectable<ActionScheduleSpecTable>;

declare module '../storage/schema.js' {
  interface Schema extends ActionsTables {}
}
