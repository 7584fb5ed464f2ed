import { isoTime, type ApiView } from '../wire.js';
import { toApiRepository, type RepoAccess } from '../repos/index.js';
import { toApiUser, type User } from '../users/index.js';
import { webUrl } from '../urls.js';
import { jobNeeds, jobRunsOn } from './lifecycle.js';
import { ActionStatus, statusName } from './status.js';
import { nowUnix } from '../storage/index.js';
import type { ApiActionRun, ApiActionRunJob, ApiActionRunner, ApiActionTask, ApiActionVariable, ApiSecret, RunnerStatus } from './schemas.js';
import type { SecretListing } from './store.js';
import type { ActionRun, ActionRunJob, ActionRunner, ActionTask, ActionTaskStep, ActionVariable } from './tables.js';

/** Forgejo's `Secret`: the name and the creation time; a value never leaves the server. */
export function toApiSecret(secret: SecretListing): ApiSecret {
  return { name: secret.name, created_at: isoTime(secret.created_unix) };
}

/** Forgejo's `ActionVariable`. */
export function toApiActionVariable(variable: ActionVariable): ApiActionVariable {
  return { owner_id: variable.owner_id, repo_id: variable.repo_id, name: variable.name, data: variable.data };
}

/** A runner is offline a minute after it last asked for work (Forgejo's `RunnerOfflineTime`). */
export const RUNNER_OFFLINE_SECONDS = 60;
/** A runner is idle ten seconds after it last did work (Forgejo's `RunnerIdleTime`). */
export const RUNNER_IDLE_SECONDS = 10;

/** Forgejo's `ActionRunner.StatusName` at `now` (Unix seconds). */
export function runnerStatus(runner: Pick<ActionRunner, 'last_online' | 'last_active'>, now: number): RunnerStatus {
  if (now - runner.last_online > RUNNER_OFFLINE_SECONDS) return 'offline';
  if (now - runner.last_active > RUNNER_IDLE_SECONDS) return 'idle';
  return 'active';
}

/** The labels a runner declared (stored as a JSON array). */
export function runnerLabels(runner: Pick<ActionRunner, 'agent_labels'>): string[] {
  try {
    const labels: unknown = JSON.parse(runner.agent_labels);
    return Array.isArray(labels) ? labels.filter((label): label is string => typeof label === 'string') : [];
  } catch {
    return [];
  }
}

/** Forgejo's `ActionRunner`, its status as of `now` (Unix seconds; by default the present). */
export function toApiActionRunner(runner: ActionRunner, now: number = nowUnix()): ApiActionRunner {
  return {
    id: runner.id,
    uuid: runner.uuid,
    name: runner.name,
    owner_id: runner.owner_id,
    repo_id: runner.repo_id,
    description: runner.description,
    labels: runnerLabels(runner),
    status: runnerStatus(runner, now),
    version: runner.version,
    ephemeral: runner.ephemeral !== 0,
  };
}

/** A run's page (`{repo}/actions/runs/{index}`). */
export function runHtmlUrl(view: ApiView, access: Pick<RepoAccess, 'owner' | 'repo'>, run: Pick<ActionRun, 'index'>): string {
  return webUrl(view.settings, `${encodeURIComponent(access.owner.name)}/${encodeURIComponent(access.repo.name)}/actions/runs/${run.index}`);
}

/** How a ref shows on a run: a branch or tag by its name, a pull request's ref as `#N` (Forgejo's `PrettyRef`). */
export function prettyRef(ref: string): string {
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  if (ref.startsWith('refs/tags/')) return ref.slice('refs/tags/'.length);
  const pull = /^refs\/pull\/(\d+)\/head$/.exec(ref);
  return pull ? `#${pull[1]}` : ref;
}

/** Forgejo's `ActionRun`. */
export function toApiActionRun(run: ActionRun, access: RepoAccess, trigger: User | undefined, view: ApiView): ApiActionRun {
  const duration = run.started ? Math.max(0, (run.stopped || Math.floor(Date.now() / 1000)) - run.started) : 0;
  return {
    id: run.id,
    title: run.title,
    repository: toApiRepository(access, view),
    owner_id: run.owner_id,
    workflow_id: run.workflow_id,
    index_in_repo: run.index,
    trigger_user: trigger ? toApiUser(trigger, view) : null,
    ScheduleID: run.schedule_id,
    prettyref: prettyRef(run.ref),
    is_ref_deleted: false,
    commit_sha: run.commit_sha,
    is_fork_pull_request: run.is_fork_pull_request !== 0,
    need_approval: false,
    approved_by: 0,
    event: run.event,
    event_payload: run.event_payload,
    trigger_event: run.trigger_event,
    status: statusName(run.status),
    started: isoTime(run.started),
    stopped: isoTime(run.stopped),
    created: isoTime(run.created),
    updated: isoTime(run.updated),
    duration: duration * 1_000_000_000,
    html_url: runHtmlUrl(view, access, run),
    ...(run.error ? { pre_execution_error: run.error } : {}),
  };
}

/**
 * Forgejo's `ActionRunJob`, with its steps when given: "Set up job" (number 0), the workflow's steps (1…N), then
 * "Complete job"; `position` is the job's place in its run (its page).
 */
export function toApiActionRunJob(job: ActionRunJob, view: ApiView, where?: { access: Pick<RepoAccess, 'owner' | 'repo'>; run: Pick<ActionRun, 'index'>; position: number; steps?: readonly ActionTaskStep[] }): ApiActionRunJob {
  const shown: ApiActionRunJob = {
    id: job.id,
    run_id: job.run_id,
    repo_id: job.repo_id,
    owner_id: job.owner_id,
    name: job.name,
    needs: jobNeeds(job),
    runs_on: jobRunsOn(job),
    task_id: job.task_id,
    status: statusName(job.status),
    attempt: job.attempt,
    handle: `${job.id}-${job.attempt}`,
  };
  if (where) {
    shown.html_url = `${runHtmlUrl(view, where.access, where.run)}/jobs/${where.position}`;
    if (where.steps) shown.steps = jobSteps(job, where.steps);
  }
  return shown;
}

function jobSteps(job: ActionRunJob, steps: readonly ActionTaskStep[]): NonNullable<ApiActionRunJob['steps']> {
  const first = steps[0];
  const setUp = {
    name: 'Set up job',
    number: 0,
    status: statusName(job.task_id ? ActionStatus.Success : job.status),
    started: isoTime(job.started),
    stopped: isoTime(first?.started || job.stopped),
  };
  const done = job.stopped !== 0;
  return [
    setUp,
    ...steps.map((step, i) => ({ name: step.name, number: i + 1, status: statusName(step.status), started: isoTime(step.started), stopped: isoTime(step.stopped) })),
    { name: 'Complete job', number: steps.length + 1, status: statusName(done ? job.status : ActionStatus.Waiting), started: isoTime(done ? job.stopped : 0), stopped: isoTime(job.stopped) },
  ];
}

/** Forgejo's `ActionTask`. */
export function toApiActionTask(task: ActionTask, job: ActionRunJob | undefined, run: ActionRun | undefined, access: Pick<RepoAccess, 'owner' | 'repo'>, view: ApiView): ApiActionTask {
  return {
    id: task.id,
    name: job?.name ?? '',
    head_branch: run ? prettyRef(run.ref) : '',
    head_sha: task.commit_sha,
    run_number: run?.index ?? 0,
    event: run?.trigger_event ?? '',
    display_title: run?.title ?? '',
    status: statusName(task.status),
    workflow_id: run?.workflow_id ?? '',
    url: run ? runHtmlUrl(view, access, run) : '',
    created_at: isoTime(task.created),
    updated_at: isoTime(task.updated),
    run_started_at: isoTime(run?.started ?? 0),
  };
}
