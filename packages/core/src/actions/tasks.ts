import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse } from 'yaml';
import type { CoreContext } from '../context.js';
import { SYSTEM, UsersPort, actorTask, taskActor, type Actor } from '../users/index.js';
import { ReposService, type RepoAccess } from '../repos/index.js';
import { ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError, ValidationError } from '../errors.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { parseGoDuration } from '../go-duration.js';
import { apiUrl, webUrl } from '../urls.js';
import { runnerLabels } from './convert.js';
import { jobNeeds, jobRunsOn, reportJobStatuses, settleRun } from './lifecycle.js';
import { RunsStore, type JobScope } from './runs-store.js';
import { ActionsService } from './service.js';
import { ArtifactsService } from './artifacts.js';
import { ActionStatus, isDone, resultOfStatus, statusOfResult } from './status.js';
import type { ActionRun, ActionRunJob, ActionRunner, ActionTask } from './tables.js';

/** A task as a runner receives it (the protocol's `Task`). */
export interface TaskForRunner {
  id: number;
  /** The single-job workflow to run. */
  payload: string;
  /** The `github` context. */
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  needs: Record<string, { outputs: Record<string, string>; result: number }>;
}

/** A step as a runner reports it (the protocol's `StepState`; times in epoch milliseconds, 0 when unset). */
export interface ReportedStep {
  id: number;
  result: number;
  startedAt: number;
  stoppedAt: number;
  logIndex: number;
  logLength: number;
}

/** A task's state as a runner reports it (the protocol's `TaskState`). */
export interface ReportedTask {
  id: number;
  result: number;
  startedAt: number;
  stoppedAt: number;
  steps: readonly ReportedStep[];
}

/** A log line as a runner sends it. */
export interface ReportedLogLine {
  /** Epoch milliseconds. */
  time: number;
  content: string;
}

/** Jobs looked at per poll for one whose labels the runner has. */
const CANDIDATE_JOBS = 50;
/** Bounds on what a runner sends: a log line's characters, lines per call, a task's log bytes, outputs. */
const MAX_LINE_LENGTH = 64 * 1024;
const MAX_LINES_PER_CALL = 10_000;
const MAX_TASK_LOG_BYTES = 64 * 1024 * 1024;
const MAX_OUTPUTS = 100;
const MAX_OUTPUT_KEY = 255;
const MAX_OUTPUT_BYTES = 1024 * 1024;
const MASK = '***';
/** Tasks or jobs a sweep reads at once. */
const SWEEP_BATCH = 100;

/**
 * The runner protocol's work (Forgejo's `routers/api/actions/runner`): handing a waiting job to a runner as a task,
 * recording what the runner reports of it (steps, result, outputs) and its log lines, secrets masked.
 */
export class TasksService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): RunsStore {
    return this.ctx.store(RunsStore);
  }

  /**
   * `FetchTask`: a task for a waiting job the runner may take (its scope, every label the job runs on), or none.
   * A runner that already saw the current tasks version is told so without a search.
   */
  async fetchTask(runner: ActionRunner, knownVersion: number): Promise<{ task: TaskForRunner | undefined; version: number }> {
    const version = await this.store.tasksVersion(runner.owner_id, runner.repo_id);
    if (knownVersion === version && version > 0) return { task: undefined, version };
    if (runner.ephemeral && (await this.runnerHasTask(runner))) return { task: undefined, version };
    const labels = new Set(runnerLabels(runner).map(labelName));
    const scope: JobScope = runner.repo_id !== 0 ? { ownerId: 0, repoId: runner.repo_id } : runner.owner_id !== 0 ? { ownerId: runner.owner_id, repoId: 0 } : { all: true };
    for (const job of await this.store.waitingJobs(scope, CANDIDATE_JOBS)) {
      if (!jobRunsOn(job).every((label) => labels.has(labelName(label)))) continue;
      const claimed = await this.claim(runner, job);
      if (claimed) return { task: claimed, version };
    }
    return { task: undefined, version };
  }

  private async runnerHasTask(runner: ActionRunner): Promise<boolean> {
    const row = await this.ctx.store(RunsStore).tasksOfRunner(runner.id, 1);
    return row.length > 0;
  }

  /** Makes the job's next task for the runner, unless another runner took the job first. */
  private async claim(runner: ActionRunner, job: ActionRunJob): Promise<TaskForRunner | undefined> {
    const token = randomBytes(20).toString('hex');
    const salt = randomBytes(10).toString('hex');
    const now = nowUnix();
    const claimed = await this.ctx.transaction(async (tx) => {
      const store = tx.store(RunsStore);
      const attempt = job.attempt + 1;
      const task = await store.insertTask({
        job_id: job.id,
        attempt,
        runner_id: runner.id,
        status: ActionStatus.Running,
        started: now,
        stopped: 0,
        repo_id: job.repo_id,
        owner_id: job.owner_id,
        commit_sha: job.commit_sha,
        token_hash: hashToken(token, salt),
        token_salt: salt,
        token_last_eight: token.slice(-8),
        log_length: 0,
        log_size: 0,
        log_done: 0,
        created: now,
        updated: now,
      });
      if (!(await store.claimJob(job.id, task.id, attempt, now))) {
        // Another runner took it between the read and now: this transaction leaves nothing.
        throw new JobTakenError();
      }
      await store.insertSteps(task.id, stepNames(job.workflow_payload));
      const settled = await settleRun(tx, job.run_id);
      return { task, run: settled.run };
    }).catch((error: unknown) => {
      // Another runner claimed it first: its task holds this attempt's number, or the job is no longer waiting.
      if (error instanceof JobTakenError || isUniqueViolation(error)) return undefined;
      throw error;
    });
    if (!claimed || !claimed.run) return undefined;
    const running = { ...job, status: ActionStatus.Running, task_id: claimed.task.id, attempt: claimed.task.attempt, started: now };
    await reportJobStatuses(this.ctx, claimed.run, [running]);
    return this.taskForRunner(claimed.task, running, claimed.run, token);
  }

  private async taskForRunner(task: ActionTask, job: ActionRunJob, run: ActionRun, token: string): Promise<TaskForRunner> {
    const access = await this.ctx.service(ReposService).resolveById(SYSTEM, run.repo_id);
    const trigger = run.trigger_user_id > 0 ? await this.ctx.port(UsersPort).byId(run.trigger_user_id) : undefined;
    const actions = this.ctx.service(ActionsService);
    // A pull request from a fork gets no secrets (Forgejo's rule): its code is not the repository's.
    const secrets: Record<string, string> = run.is_fork_pull_request ? {} : Object.fromEntries(await actions.secretsForTask(run.owner_id, run.repo_id));
    secrets.GITHUB_TOKEN = token;
    secrets.GITEA_TOKEN = token;
    secrets.FORGEJO_TOKEN = token;
    const vars = Object.fromEntries(await actions.variablesForTask(run.owner_id, run.repo_id));
    const ref = shortRefOf(run.ref);
    let event: unknown = {};
    try {
      event = JSON.parse(run.event_payload || '{}');
    } catch {
      // Stored by this service as JSON; an unreadable one is an empty event.
    }
    const pull = (event as { pull_request?: { base?: { ref?: string }; head?: { ref?: string } } }).pull_request;
    const serverUrl = webUrl(this.ctx.settings, '').replace(/\/$/, '');
    const runtimeToken = this.ctx.service(ArtifactsService).runtimeToken(task, job);
    const context: Record<string, unknown> = {
      action: '',
      action_path: '',
      action_ref: '',
      action_repository: '',
      action_status: '',
      actor: trigger?.name ?? access.owner.name,
      api_url: apiUrl(this.ctx.settings, '').replace(/\/$/, ''),
      base_ref: pull?.base?.ref ?? '',
      env: '',
      event,
      event_name: run.trigger_event,
      event_path: '',
      graphql_url: '',
      head_ref: pull?.head?.ref ?? '',
      job: job.job_id,
      job_workflow_sha: '',
      path: '',
      ref: run.ref,
      ref_name: ref.name,
      ref_protected: false,
      ref_type: ref.type,
      repository: `${access.owner.name}/${access.repo.name}`,
      repository_owner: access.owner.name,
      retention_days: '',
      run_attempt: String(task.attempt),
      run_id: String(run.id),
      run_number: String(run.index),
      secret_source: 'Actions',
      server_url: serverUrl,
      sha: run.commit_sha,
      token,
      triggering_actor: trigger?.name ?? '',
      workflow: run.workflow_id,
      workspace: '',
      gitea_default_actions_url: this.ctx.settings.actions.DEFAULT_ACTIONS_URL,
      forgejo_default_actions_url: this.ctx.settings.actions.DEFAULT_ACTIONS_URL,
      // The artifact protocol's credential (the runner's ACTIONS_RUNTIME_TOKEN), good while this task runs.
      gitea_runtime_token: runtimeToken,
      forgejo_runtime_token: runtimeToken,
    };
    return { id: task.id, payload: job.workflow_payload, context, secrets, vars, needs: await this.needsOf(job) };
  }

  /** The outputs and results of the jobs a job needs (the runner's `needs` context). */
  private async needsOf(job: ActionRunJob): Promise<TaskForRunner['needs']> {
    const keys = jobNeeds(job);
    if (keys.length === 0) return {};
    const siblings = await this.store.jobsOfRun(job.run_id);
    const needs: TaskForRunner['needs'] = {};
    for (const key of keys) {
      const outputs: Record<string, string> = {};
      let result = ActionStatus.Success as number;
      for (const sibling of siblings.filter((candidate) => candidate.job_id === key)) {
        if (sibling.task_id) for (const [name, value] of await this.store.outputsOfTask(sibling.task_id)) outputs[name] ??= value;
        if (sibling.status !== ActionStatus.Success) result = sibling.status;
      }
      needs[key] = { outputs, result: resultOfStatus(result) };
    }
    return needs;
  }

  /** The runner's task `id`: another runner's is refused (Forgejo: "invalid runner for task"). */
  private async ownTask(runner: ActionRunner, id: number): Promise<ActionTask> {
    const task = Number.isSafeInteger(id) && id > 0 ? await this.store.taskById(id) : undefined;
    if (!task) throw new NotFoundError('task not found');
    if (task.runner_id !== runner.id) throw new ForbiddenError('invalid runner for task');
    return task;
  }

  /**
   * `UpdateTask`: records the runner's outputs and steps, and when it reports a result finishes the task and its
   * job (the run and the jobs that need it follow). Answers the task's state as stored, so a runner whose task was
   * cancelled meanwhile learns it.
   */
  async updateTask(runner: ActionRunner, state: ReportedTask, outputs: ReadonlyMap<string, string>): Promise<{ result: number; sentOutputs: string[] }> {
    const task = await this.ownTask(runner, state.id);
    const kept = new Map<string, string>();
    let bytes = 0;
    for (const [key, value] of outputs) {
      if (kept.size >= MAX_OUTPUTS) break;
      if (key === '' || key.length > MAX_OUTPUT_KEY) throw new ValidationError('outputs', `output key must be 1 to ${MAX_OUTPUT_KEY} characters`);
      bytes += Buffer.byteLength(value);
      if (bytes > MAX_OUTPUT_BYTES) throw new PayloadTooLargeError(`outputs exceed ${MAX_OUTPUT_BYTES} bytes`);
      kept.set(key, value);
    }
    const sentOutputs = await this.store.addOutputs(task.id, kept);
    if (isDone(task.status)) return { result: resultOfStatus(task.status), sentOutputs };
    const now = nowUnix();
    // A report is a sign of life: the zombie sweep leaves the task alone.
    await this.store.touchTask(task.id, now);
    for (const step of state.steps) {
      const status = statusOfResult(step.result) ?? (step.startedAt ? ActionStatus.Running : ActionStatus.Waiting);
      await this.store.updateStep(task.id, step.id, {
        status,
        log_index: Math.max(0, step.logIndex),
        log_length: Math.max(0, step.logLength),
        started: step.startedAt ? Math.floor(step.startedAt / 1000) : 0,
        stopped: step.stoppedAt ? Math.floor(step.stoppedAt / 1000) : 0,
      });
    }
    const finished = statusOfResult(state.result);
    if (finished === undefined) return { result: 0, sentOutputs };
    await this.finish(task, finished, state.stoppedAt ? Math.floor(state.stoppedAt / 1000) : now);
    const current = await this.store.taskById(task.id);
    return { result: resultOfStatus(current?.status ?? finished), sentOutputs };
  }

  /** Ends a running task and its job with `status` (the run and the jobs that need it follow); false if it had ended. */
  private async finish(task: ActionTask, status: ActionStatus, stopped: number): Promise<boolean> {
    const now = nowUnix();
    const outcome = await this.ctx.transaction(async (tx) => {
      const store = tx.store(RunsStore);
      if (!(await store.updateTask(task.id, [ActionStatus.Running, ActionStatus.Waiting], { status, stopped }, now))) return undefined;
      const job = await store.jobById(task.job_id);
      if (!job || job.task_id !== task.id) return undefined;
      if (!(await store.moveJob(job.id, [ActionStatus.Running], { status, stopped }, now))) return undefined;
      const settled = await settleRun(tx, job.run_id);
      return { run: settled.run, changed: [{ ...job, status, stopped }, ...settled.changed] };
    });
    if (outcome?.run) await reportJobStatuses(this.ctx, outcome.run, outcome.changed);
    return outcome !== undefined;
  }

  /**
   * The cron tasks' sweeps (Forgejo's `StopZombieTasks`, `StopEndlessTasks`): running tasks whose runner has not
   * reported for `[actions] ZOMBIE_TASK_TIMEOUT`, or that run past `ENDLESS_TASK_TIMEOUT`, fail.
   */
  async stopStaleTasks(which: 'zombie' | 'endless', signal: AbortSignal): Promise<string> {
    const setting = which === 'zombie' ? this.ctx.settings.actions.ZOMBIE_TASK_TIMEOUT : this.ctx.settings.actions.ENDLESS_TASK_TIMEOUT;
    const seconds = parseGoDuration(setting);
    if (seconds === undefined || seconds <= 0) return `[actions] ${which === 'zombie' ? 'ZOMBIE' : 'ENDLESS'}_TASK_TIMEOUT is not a duration`;
    const before = nowUnix() - seconds;
    let stopped = 0;
    for (;;) {
      const tasks = await this.store.runningTasksBefore(which === 'zombie' ? 'updated' : 'started', before, SWEEP_BATCH);
      for (const task of tasks) {
        if (signal.aborted) break;
        if (await this.finish(task, ActionStatus.Failure, nowUnix())) stopped++;
      }
      if (tasks.length < SWEEP_BATCH || signal.aborted) break;
    }
    return stopped === 0 ? 'no task to stop' : `${stopped} tasks stopped`;
  }

  /** The cron task `cancel_abandoned_jobs`: jobs no runner took for `[actions] ABANDONED_JOB_TIMEOUT` are cancelled. */
  async cancelAbandonedJobs(signal: AbortSignal): Promise<string> {
    const seconds = parseGoDuration(this.ctx.settings.actions.ABANDONED_JOB_TIMEOUT);
    if (seconds === undefined || seconds <= 0) return '[actions] ABANDONED_JOB_TIMEOUT is not a duration';
    const before = nowUnix() - seconds;
    let cancelled = 0;
    for (;;) {
      const jobs = await this.store.waitingJobsBefore(before, SWEEP_BATCH);
      for (const job of jobs) {
        if (signal.aborted) break;
        const now = nowUnix();
        const outcome = await this.ctx.transaction(async (tx) => {
          if (!(await tx.store(RunsStore).moveJob(job.id, [ActionStatus.Waiting], { status: ActionStatus.Cancelled, stopped: now }, now))) return undefined;
          const settled = await settleRun(tx, job.run_id);
          return { run: settled.run, changed: [{ ...job, status: ActionStatus.Cancelled, stopped: now }, ...settled.changed] };
        });
        if (outcome?.run) {
          cancelled++;
          await reportJobStatuses(this.ctx, outcome.run, outcome.changed);
        }
      }
      if (jobs.length < SWEEP_BATCH || signal.aborted) break;
    }
    return cancelled === 0 ? 'no abandoned job' : `${cancelled} abandoned jobs cancelled`;
  }

  /**
   * `UpdateLog`: appends the lines from `index` on (those already stored are skipped; a gap is refused by answering
   * the length stored, without storing anything), masking the task's secrets. Answers the lines stored.
   */
  async updateLog(runner: ActionRunner, taskId: number, index: number, lines: readonly ReportedLogLine[], noMore: boolean): Promise<number> {
    const task = await this.ownTask(runner, taskId);
    if (task.log_done) throw new ConflictError('log file has been archived');
    if (lines.length > MAX_LINES_PER_CALL) throw new PayloadTooLargeError(`at most ${MAX_LINES_PER_CALL} log lines per call`);
    const ack = task.log_length;
    if (index > ack || index < 0) return ack;
    const fresh = lines.slice(ack - index);
    if (fresh.length === 0 && !noMore) return ack;
    const masker = await this.maskerOf(task);
    const stored = fresh.map((line) => ({ time: Number.isFinite(line.time) ? Math.max(0, Math.floor(line.time)) : 0, content: masker(line.content.slice(0, MAX_LINE_LENGTH)) }));
    const bytes = stored.reduce((sum, line) => sum + Buffer.byteLength(line.content), 0);
    if (task.log_size + bytes > MAX_TASK_LOG_BYTES) throw new PayloadTooLargeError(`a task's log may hold at most ${MAX_TASK_LOG_BYTES} bytes`);
    const length = await this.ctx.transaction(async (tx) => {
      const store = tx.store(RunsStore);
      const length = await store.appendLog(task.id, ack, stored, bytes, nowUnix());
      if (length !== undefined && noMore) await store.markLogDone(task.id);
      return length;
    });
    if (length !== undefined) return length;
    // Another call appended meanwhile: the runner resends from what is stored now.
    return (await this.store.taskById(task.id))?.log_length ?? ack;
  }

  /** Replaces every secret of the task's repository (each line of a multi-line one too) with `***`. */
  private async maskerOf(task: ActionTask): Promise<(line: string) => string> {
    const values = new Set<string>();
    for (const value of (await this.ctx.service(ActionsService).secretsForTask(task.owner_id, task.repo_id)).values()) {
      for (const part of [value, ...value.split('\n')]) if (part.trim() !== '') values.add(part);
    }
    // Longest first, so a secret containing another is masked whole.
    const sorted = [...values].sort((a, b) => b.length - a.length);
    return (line) => {
      let masked = line;
      for (const value of sorted) if (masked.includes(value)) masked = masked.split(value).join(MASK);
      return masked;
    };
  }

  /** The task a workflow token belongs to, while its task runs (the token is good only then). */
  async taskOfToken(token: string): Promise<ActionTask | undefined> {
    if (!/^[0-9a-f]{40}$/.test(token)) return undefined;
    for (const task of await this.store.tasksByTokenEnd(token.slice(-8))) {
      if (task.status !== ActionStatus.Running) continue;
      const expected = Buffer.from(task.token_hash, 'hex');
      const actual = Buffer.from(hashToken(token, task.token_salt), 'hex');
      if (expected.length === actual.length && timingSafeEqual(expected, actual)) return task;
    }
    return undefined;
  }

  /**
   * Who a workflow token authenticates (Forgejo's `GetRunningTaskByToken` then the Actions user with its task id):
   * the Actions user acting for the task while it runs, with what the permission rule needs of it; undefined for
   * an unknown token or a finished task's.
   */
  async actorOfToken(token: string): Promise<Actor | undefined> {
    const task = await this.taskOfToken(token);
    if (!task) return undefined;
    const job = await this.store.jobById(task.job_id);
    const run = job ? await this.store.runById(job.run_id) : undefined;
    if (!run) return undefined;
    return taskActor({ id: task.id, repoId: task.repo_id, forkPullRequest: run.is_fork_pull_request !== 0 });
  }

  /**
   * `GET /actions/run`: the run of the task whose token authenticated the request, with its repository as the task
   * sees it. Any other caller is refused, as Forgejo refuses it (403 "must use an automatic actions token").
   */
  async runOfToken(actor: Actor): Promise<{ run: ActionRun; access: RepoAccess }> {
    const own = actorTask(actor);
    if (!own) throw new ForbiddenError('must use an automatic actions token');
    const task = await this.store.taskById(own.id);
    const job = task ? await this.store.jobById(task.job_id) : undefined;
    const run = job ? await this.store.runById(job.run_id) : undefined;
    if (!run) throw new NotFoundError('run not found');
    return { run, access: await this.ctx.service(ReposService).resolveById(actor, run.repo_id) };
  }
}

class JobTakenError extends Error {}

function hashToken(token: string, salt: string): string {
  return createHmac('sha256', salt).update(token).digest('hex');
}

/** A label's name: what comes before `:` (`ubuntu-latest:docker://node:20` is `ubuntu-latest`). */
function labelName(label: string): string {
  const colon = label.indexOf(':');
  return (colon < 0 ? label : label.slice(0, colon)).trim();
}

function shortRefOf(ref: string): { name: string; type: string } {
  if (ref.startsWith('refs/heads/')) return { name: ref.slice('refs/heads/'.length), type: 'branch' };
  if (ref.startsWith('refs/tags/')) return { name: ref.slice('refs/tags/'.length), type: 'tag' };
  return { name: ref, type: '' };
}

/** The names of a single-job payload's steps as Forgejo shows them (`name`, else `uses`, else `run`, else `id`). */
export function stepNames(payload: string): string[] {
  let document: unknown;
  try {
    document = parse(payload, { maxAliasCount: 0 });
  } catch {
    return [];
  }
  const jobs = document && typeof document === 'object' ? (document as { jobs?: unknown }).jobs : undefined;
  const job = jobs && typeof jobs === 'object' ? Object.values(jobs as Record<string, unknown>)[0] : undefined;
  const steps = job && typeof job === 'object' ? (job as { steps?: unknown }).steps : undefined;
  if (!Array.isArray(steps)) return [];
  return steps.slice(0, 1000).map((step, index) => {
    const s = step && typeof step === 'object' ? (step as Record<string, unknown>) : {};
    for (const key of ['name', 'uses', 'run', 'id']) {
      const value = s[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim().split('\n')[0]!.slice(0, 255);
    }
    return `step ${index + 1}`;
  });
}
