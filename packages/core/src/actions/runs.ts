import type { CoreContext, CoreTransaction } from '../context.js';
import { randomUUID } from 'node:crypto';
import { ANONYMOUS, SYSTEM, UsersPort, actorUser, isActionsActor, toApiUser, type Actor, type User } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { ReposService, repoKey, toApiRepository, viewUnits, type RepoAccess, type Repository } from '../repos/index.js';
import { JobsService, type JobRun } from '../jobs/index.js';
import { WebhooksService, type HookPayload, type PullHookAction } from '../webhooks/index.js';
import { IssuesPort, type IssueEventBase } from '../issues/index.js';
import { PullsPort } from '../pulls/index.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { nowUnix } from '../storage/index.js';
import type { Page, PageRequest } from '../paging.js';
import type { RefUpdate } from '../git/index.js';
import { MAX_WORKFLOW_BYTES } from './workflows/index.js';
import { WorkflowBudgetError, WorkflowPool } from './workflow-pool.js';
import type { AnalyzedWorkflow, WorkflowQuestion } from './workflow-worker.js';
import { cancelRun, jobNeeds, reportJobStatuses, settleRun } from './lifecycle.js';
import { RunsStore, type RunFilter, type StoredLogLine } from './runs-store.js';
import { ActionStatus, isDone } from './status.js';
import type { ActionRun, ActionRunJob, ActionTask, ActionTaskStep } from './tables.js';

declare module '../jobs/kinds.js' {
  interface JobPayloads {
    /** Looks for workflows an event starts, and starts them (a push's ref updates, a pull request's action). */
    'actions.detect': DetectPayload;
  }
}

/** What a detection job is given: the event, enough to find it again, and who caused it. */
export type DetectPayload =
  | { event: 'push'; repoId: number; actorId: number; updates: RefUpdate[] }
  | { event: 'pull_request'; repoId: number; actorId: number; issueId: number; action: PullHookAction };

/** The folders workflows are read from, in Forgejo's order: the first that has any is used. */
export const WORKFLOW_DIRS = ['.forgejo/workflows', '.gitea/workflows', '.github/workflows'] as const;
/** Workflow files read per commit at most (a file over MAX_WORKFLOW_BYTES is reported on its run, not read). */
const MAX_WORKFLOW_FILES = 64;
/** Paths compared for `paths` filters at most; beyond, the filters see the push as touching everything. */
const MAX_CHANGED_PATHS = 10_000;
const ZERO_ID = /^0+$/;
/** Characters of a workflow's error kept on its run. */
const MAX_ERROR_LENGTH = 4000;

/** A workflow file read from a commit: its name in its folder and its content (or why it has none). */
export interface WorkflowFile {
  /** The folder it was read from (`.forgejo/workflows`). */
  dir: string;
  id: string;
  content?: string;
  error?: string;
}

/** What a run is started from: the repository, who caused it, the workflow file and its answer, the event. */
export interface RunStart {
  access: RepoAccess;
  actor: User;
  file: WorkflowFile;
  analysis: AnalyzedWorkflow;
  ref: string;
  sha: string;
  event: string;
  payload: HookPayload;
  triggerKey: string;
  title: string;
  isFork: boolean;
  inputs?: Record<string, string>;
  scheduleId?: number;
}

/** The Actions unit is on for the repository and the instance. */
export function actionsEnabled(ctx: CoreContext, repo: Repository): boolean {
  return ctx.settings.actions.ENABLED && viewUnits(repo.units, ctx.settings).actions !== undefined;
}

/**
 * Workflow runs: detecting the workflows an event starts (a push, a pull request, a dispatch), making their runs and
 * jobs, and what the API shows and does with them (Forgejo's `services/actions` and `routers/api/v1/repo/action.go`).
 */
export class RunsService {
  private pool: WorkflowPool | undefined;

  constructor(private readonly ctx: CoreContext) {}

  private get store(): RunsStore {
    return this.ctx.store(RunsStore);
  }

  /**
   * Events become detection jobs in their own transaction (so a crash loses none); a repository's runs go with it.
   */
  subscribe(): void {
    const events = this.ctx.events;
    events.withinTransaction('repo.pushed', async ({ payload }, tx) => {
      // As Forgejo (notifier_helper.go): what the Actions user does with a task's token starts no workflow, so a
      // workflow that pushes does not start itself again.
      if (isActionsActor(payload.actor) || !actionsEnabled(this.ctx, payload.repo)) return;
      const updates = payload.updates.filter((update) => !ZERO_ID.test(update.newId));
      if (updates.length === 0) return;
      await this.ctx.service(JobsService).enqueue('actions.detect', { event: 'push', repoId: payload.repo.id, actorId: actorUser(payload.actor)?.id ?? 0, updates }, { tx });
    });
    const onPull = (action: PullHookAction) => async ({ payload }: { payload: IssueEventBase }, tx: CoreTransaction) => {
      if (!payload.issue.is_pull || isActionsActor(payload.actor) || !actionsEnabled(this.ctx, payload.repo)) return;
      await this.ctx
        .service(JobsService)
        .enqueue('actions.detect', { event: 'pull_request', repoId: payload.repo.id, actorId: actorUser(payload.actor)?.id ?? 0, issueId: payload.issue.id, action }, { tx });
    };
    events.withinTransaction('pull.opened', onPull('opened'));
    events.withinTransaction('pull.synchronized', onPull('synchronized'));
    events.withinTransaction('issue.closed', onPull('closed'));
    events.withinTransaction('issue.reopened', onPull('reopened'));
    events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(RunsStore).deleteRunsOfRepo(payload.repo.id));
  }

  // ---- detection ----

  /** The `actions.detect` job: reads the workflows of the event's commit and starts those the event matches. */
  async handleDetect(run: JobRun<DetectPayload>): Promise<void> {
    const event = run.payload;
    let access: RepoAccess;
    try {
      access = await this.ctx.service(ReposService).resolveById(SYSTEM, event.repoId);
    } catch (error) {
      if (error instanceof NotFoundError) return;
      throw error;
    }
    if (!actionsEnabled(this.ctx, access.repo)) return;
    const actor = (event.actorId > 0 ? await this.ctx.port(UsersPort).byId(event.actorId) : undefined) ?? access.owner;
    if (event.event === 'push') {
      for (const update of event.updates) await this.detectPush(run.job.id, access, actor, update);
    } else {
      await this.detectPull(run.job.id, access, actor, event);
    }
  }

  private async detectPush(jobId: number, access: RepoAccess, actor: User, update: RefUpdate): Promise<void> {
    const files = await this.workflowFiles(access, update.newId);
    if (files.length === 0) return;
    const changedFiles = ZERO_ID.test(update.oldId) ? undefined : await this.changedPaths(access, update.oldId, update.newId);
    const payload = await this.ctx.service(WebhooksService).pushEventPayload(access.repo, access.owner, userActor(actor), update);
    const title = firstLine(((payload as { head_commit?: { message?: string } }).head_commit?.message ?? '') || update.ref);
    const answers = await this.analyze(files, { kind: 'push', ref: update.ref, changedFiles });
    await this.startMatched(files, answers, { access, actor, ref: update.ref, sha: update.newId, event: 'push', payload, title, isFork: false }, `job:${jobId}:${update.ref}`);
  }

  private async detectPull(jobId: number, access: RepoAccess, actor: User, event: Extract<DetectPayload, { event: 'pull_request' }>): Promise<void> {
    const issue = await this.ctx.port(IssuesPort).byId(event.issueId);
    const pull = issue && (await this.ctx.port(PullsPort).byIssueId(issue.id));
    if (!issue || !pull || !pull.head_commit_id) return;
    const headSha = pull.head_commit_id;
    const files = await this.workflowFiles(access, headSha);
    if (files.length === 0) return;
    const payload = await this.ctx.service(WebhooksService).pullEventPayload({ actor: userActor(actor), repo: access.repo, owner: access.owner, issue }, event.action);
    if (!payload) return;
    const changedFiles = pull.merge_base ? await this.changedPaths(access, pull.merge_base, headSha) : undefined;
    const action = event.action === 'synchronized' ? 'synchronize' : event.action;
    const answers = await this.analyze(files, { kind: 'pull_request', action, baseBranch: pull.base_branch, changedFiles });
    const run = { access, actor, ref: `refs/pull/${issue.index}/head`, sha: headSha, event: 'pull_request', payload, title: issue.name, isFork: pull.head_repo_id !== pull.base_repo_id };
    await this.startMatched(files, answers, run, `job:${jobId}:pull`);
  }

  /** Starts a run of each file the event matched; `triggerKey` and the file's name make each run's key. */
  private async startMatched(files: readonly WorkflowFile[], answers: ReadonlyMap<string, AnalyzedWorkflow>, run: Omit<RunStart, 'file' | 'analysis' | 'triggerKey'>, triggerKey: string): Promise<void> {
    for (const file of files) {
      const analysis = answers.get(file.id)!;
      if (analysis.matched) await this.startRun({ ...run, file, analysis, triggerKey: `${triggerKey}:${file.id}` });
    }
  }

  /**
   * The files' answers to a question, read in the workflow worker (off the event loop, within a time budget). A
   * file too large to read, or files whose reading ran out of time, answer with their error, which their runs show.
   */
  async analyze(files: readonly WorkflowFile[], question: WorkflowQuestion): Promise<Map<string, AnalyzedWorkflow>> {
    const readable = files.filter((file) => file.content !== undefined);
    const unreadable = (id: string, error: string): AnalyzedWorkflow => ({ id, name: '', error, matched: question.kind !== 'schedule' });
    let answers: AnalyzedWorkflow[];
    try {
      answers = await (this.pool ??= new WorkflowPool()).analyze({ files: readable.map((file) => ({ id: file.id, content: file.content! })), question });
    } catch (error) {
      if (!(error instanceof WorkflowBudgetError)) throw error;
      answers = readable.map((file) => unreadable(file.id, error.message));
    }
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    for (const file of files) if (file.content === undefined) byId.set(file.id, unreadable(file.id, file.error ?? 'workflow could not be read'));
    return byId;
  }

  /** Stops the workflow worker (the host is closing). */
  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }

  /** The workflow files of a commit: the first of Forgejo's folders that has any, `.yml` and `.yaml` files. */
  async workflowFiles(access: RepoAccess, commit: string): Promise<WorkflowFile[]> {
    const key = repoKey(access.owner, access.repo);
    const git = this.ctx.git;
    for (const dir of WORKFLOW_DIRS) {
      const tree = await git.readTree(key, `${commit}:${dir}`, { sizes: true, limit: MAX_WORKFLOW_FILES * 4 });
      const entries = (tree?.entries ?? []).filter((entry) => entry.type === 'blob' && /\.ya?ml$/.test(entry.path)).slice(0, MAX_WORKFLOW_FILES);
      if (entries.length === 0) continue;
      const small = entries.filter((entry) => entry.size <= MAX_WORKFLOW_BYTES);
      const objects = await git.readObjects(key, small.map((entry) => entry.id), { maxBytes: MAX_WORKFLOW_BYTES });
      const contents = new Map(small.map((entry, i) => [entry.path, objects[i]?.content.toString('utf8')]));
      return entries.map((entry) => {
        const content = contents.get(entry.path);
        return content === undefined ? { dir, id: entry.path, error: `workflow file is larger than ${MAX_WORKFLOW_BYTES} bytes` } : { dir, id: entry.path, content };
      });
    }
    return [];
  }

  private async changedPaths(access: RepoAccess, from: string, to: string): Promise<string[] | undefined> {
    try {
      const changed = await this.ctx.git.changedFiles(repoKey(access.owner, access.repo), from, to);
      if (changed.length > MAX_CHANGED_PATHS) return undefined;
      return changed.flatMap((entry) => (entry.previousPath ? [entry.path, entry.previousPath] : [entry.path]));
    } catch {
      // The old commit is gone (a force push over pruned history): the filters see every path.
      return undefined;
    }
  }

  /**
   * Makes a run of a workflow file with its jobs (one per matrix combination), waiting for runners or blocked on
   * their needs; a file that does not parse makes a failed run that says why (Forgejo shows it on the run too).
   */
  async startRun(start: RunStart): Promise<{ run: ActionRun; jobs: ActionRunJob[] }> {
    const { access } = start;
    const plan = start.analysis.plan;
    const error = start.analysis.error ?? (plan === undefined ? 'workflow could not be read' : plan.ok ? undefined : plan.error);
    const now = nowUnix();
    const eventPayload = start.inputs ? { ...start.payload, inputs: start.inputs } : start.payload;
    const result = await this.ctx.transaction(async (tx) => {
      const store = tx.store(RunsStore);
      const { run, created } = await store.insertRun({
        repo_id: access.repo.id,
        owner_id: access.repo.owner_id,
        title: start.title.slice(0, 255),
        workflow_id: start.file.id,
        trigger_user_id: start.actor.id,
        schedule_id: start.scheduleId ?? 0,
        ref: start.ref,
        commit_sha: start.sha,
        event: start.event,
        trigger_event: start.event,
        event_payload: JSON.stringify(eventPayload),
        trigger_key: start.triggerKey,
        is_fork_pull_request: start.isFork ? 1 : 0,
        error: (error ?? '').slice(0, MAX_ERROR_LENGTH),
        status: error ? ActionStatus.Failure : ActionStatus.Waiting,
        started: error ? now : 0,
        stopped: error ? now : 0,
        created: now,
        updated: now,
      });
      if (!created) return { run, jobs: await store.jobsOfRun(run.id), created };
      // A workflow that cannot be planned is a failed run without jobs that says why (its `error`).
      if (error || !plan || !plan.ok) return { run, jobs: [], created };
      const jobs = await store.insertJobs(
        run.id,
        plan.jobs.map((job) => ({
          repo_id: access.repo.id,
          owner_id: access.repo.owner_id,
          commit_sha: start.sha,
          name: job.name.slice(0, 255),
          job_id: job.jobId,
          attempt: 0,
          workflow_payload: job.payload,
          needs: JSON.stringify(job.needs),
          runs_on: JSON.stringify(job.runsOn),
          task_id: 0,
          status: job.needs.length ? ActionStatus.Blocked : ActionStatus.Waiting,
          started: 0,
          stopped: 0,
          created: now,
          updated: now,
        })),
      );
      await store.increaseTasksVersion(access.repo.owner_id, access.repo.id);
      const settled = await settleRun(tx, run.id);
      return { run: settled.run ?? run, jobs: await store.jobsOfRun(run.id), created };
    });
    if (result.created) await reportJobStatuses(this.ctx, result.run, result.jobs);
    return { run: result.run, jobs: result.jobs };
  }

  // ---- dispatch ----

  /**
   * `POST …/actions/workflows/{file}/dispatches`: runs a workflow that declares `workflow_dispatch` on a branch or
   * tag, with its inputs checked against the declared ones (Forgejo's `DispatchActionWorkflow`).
   */
  async dispatch(actor: Actor, access: RepoAccess, workflowFile: string, input: { ref?: string; inputs?: Record<string, string> }): Promise<{ run: ActionRun; jobs: ActionRunJob[] }> {
    this.assertWrite(actor, access);
    const user = actorUser(actor) ?? access.owner;
    const refName = (input.ref ?? '').trim();
    if (refName === '') throw new ValidationError('ref', 'ref is required');
    const key = repoKey(access.owner, access.repo);
    const candidates = refName.startsWith('refs/') ? [refName] : [`refs/heads/${refName}`, `refs/tags/${refName}`];
    const refs = await this.ctx.git.readRefs(key, candidates);
    const ref = candidates.find((candidate) => refs.has(candidate));
    const sha = ref && (await this.ctx.git.resolveCommit(key, refs.get(ref)!));
    if (!ref || !sha) throw new NotFoundError(`ref "${refName}" not found`);
    const files = await this.workflowFiles(access, sha);
    const file = files.find((candidate) => candidate.id === workflowFile);
    if (!file) throw new NotFoundError(`workflow "${workflowFile}" not found`);
    const analysis = (await this.analyze([file], { kind: 'dispatch', inputs: input.inputs ?? {} })).get(file.id)!;
    if (analysis.error !== undefined) throw new BadRequestError(analysis.error);
    if (!analysis.matched) throw new BadRequestError(`workflow "${workflowFile}" is not configured for workflow_dispatch`);
    const inputs = analysis.inputs!;
    if (!inputs.ok) throw new BadRequestError(inputs.error);
    // Forgejo's `workflow_dispatch` payload, the repository shown as its owner sees it.
    const view = { viewer: SYSTEM, settings: this.ctx.settings };
    const payload: HookPayload = {
      inputs: inputs.inputs,
      ref,
      repository: toApiRepository({ ...access, mode: AccessMode.Owner, units: undefined }, view),
      sender: toApiUser(user, { viewer: ANONYMOUS, settings: this.ctx.settings }),
      workflow: `${file.dir}/${workflowFile}`,
    };
    return this.startRun({
      access,
      actor: user,
      file,
      analysis,
      ref,
      sha,
      event: 'workflow_dispatch',
      payload,
      triggerKey: `dispatch:${randomUUID()}`,
      title: analysis.name || workflowFile,
      isFork: false,
      inputs: inputs.inputs,
    });
  }

  // ---- the API ----

  /** Reading runs needs read access to the Actions unit (and the unit on). */
  assertRead(access: RepoAccess): void {
    if (!actionsEnabled(this.ctx, access.repo) || unitMode(access, 'repo.actions') < AccessMode.Read) throw new NotFoundError();
  }

  /** Changing runs (cancel, rerun, delete, dispatch) needs write access to the Actions unit. */
  assertWrite(actor: Actor, access: RepoAccess): void {
    this.assertRead(access);
    if (actor.kind === 'anonymous' || unitMode(access, 'repo.actions') < AccessMode.Write) throw new ForbiddenError('user should have write access to the repository actions');
  }

  async list(access: RepoAccess, filter: RunFilter, page: PageRequest): Promise<Page<ActionRun>> {
    this.assertRead(access);
    return this.store.runs(access.repo.id, filter, page);
  }

  /** The accounts that started runs (one query for a page). */
  triggerUsers(runs: readonly ActionRun[]): Promise<Map<number, User>> {
    return this.ctx.port(UsersPort).byIds(runs.map((run) => run.trigger_user_id).filter((id) => id > 0));
  }

  async get(access: RepoAccess, id: number): Promise<ActionRun> {
    this.assertRead(access);
    const run = Number.isSafeInteger(id) && id > 0 ? await this.store.runById(id) : undefined;
    if (!run || run.repo_id !== access.repo.id) throw new NotFoundError('run not found');
    return run;
  }

  async jobs(access: RepoAccess, runId: number): Promise<{ run: ActionRun; jobs: ActionRunJob[] }> {
    const run = await this.get(access, runId);
    return { run, jobs: await this.store.jobsOfRun(run.id) };
  }

  async job(access: RepoAccess, jobId: number): Promise<{ run: ActionRun; job: ActionRunJob; position: number }> {
    this.assertRead(access);
    const job = Number.isSafeInteger(jobId) && jobId > 0 ? await this.store.jobById(jobId) : undefined;
    if (!job || job.repo_id !== access.repo.id) throw new NotFoundError('job not found');
    const run = await this.store.runById(job.run_id);
    if (!run) throw new NotFoundError('job not found');
    const siblings = await this.store.jobsOfRun(run.id);
    return { run, job, position: siblings.findIndex((sibling) => sibling.id === job.id) };
  }

  /** The steps of jobs' current tasks, by task id (one query for a page of jobs). */
  async stepsOfJobs(jobs: readonly ActionRunJob[]): Promise<Map<number, ActionTaskStep[]>> {
    const steps = await this.store.stepsOfTasks(jobs.map((job) => job.task_id).filter((id) => id > 0));
    const byTask = new Map<number, ActionTaskStep[]>();
    for (const step of steps) byTask.set(step.task_id, [...(byTask.get(step.task_id) ?? []), step]);
    return byTask;
  }

  /** The tasks of a job, and of the attempt asked for (the latest by default). */
  async jobTask(access: RepoAccess, jobId: number, attempt?: number): Promise<{ job: ActionRunJob; task: ActionTask | undefined; steps: ActionTaskStep[] }> {
    const { job } = await this.job(access, jobId);
    const tasks = await this.store.tasksOfJob(job.id);
    const task = attempt === undefined ? tasks.find((candidate) => candidate.id === job.task_id) ?? tasks.at(-1) : tasks.find((candidate) => candidate.attempt === attempt);
    if (attempt !== undefined && !task) throw new NotFoundError('attempt not found');
    return { job, task, steps: task ? await this.store.stepsOfTask(task.id) : [] };
  }

  /** The current tasks of jobs, by task id (one query for a run's jobs). */
  async tasksOfJobs(jobs: readonly ActionRunJob[]): Promise<Map<number, ActionTask>> {
    const tasks = await this.store.tasksByIds(jobs.map((job) => job.task_id).filter((id) => id > 0));
    return new Map(tasks.map((task) => [task.id, task]));
  }

  /** Lines of a task's log (bounded by the caller). */
  logLines(task: ActionTask, from: number, to: number): Promise<StoredLogLine[]> {
    return this.store.logLines(task.id, from, to);
  }

  async tasks(access: RepoAccess, statuses: readonly number[], page: PageRequest): Promise<{ page: Page<ActionTask>; jobs: Map<number, ActionRunJob>; runs: Map<number, ActionRun> }> {
    this.assertRead(access);
    const tasks = await this.store.tasks(access.repo.id, statuses, page);
    // One query for the page's jobs and one for their runs, however long the page.
    const jobs = new Map((await this.store.jobsByIds(tasks.items.map((task) => task.job_id))).map((job) => [job.id, job]));
    const runs = new Map((await this.store.runsByIds([...jobs.values()].map((job) => job.run_id))).map((run) => [run.id, run]));
    return { page: tasks, jobs, runs };
  }

  /** Cancels every unfinished job of a run (a runner learns it at its next report). */
  async cancel(actor: Actor, access: RepoAccess, runId: number): Promise<void> {
    this.assertWrite(actor, access);
    const run = await this.get(access, runId);
    const { run: settled, changed } = await this.ctx.transaction((tx) => cancelRun(tx, run.id));
    if (settled) await reportJobStatuses(this.ctx, settled, changed);
  }

  /** Runs a finished run again: every job, or one job and the jobs that need it (Forgejo's rerun). */
  async rerun(actor: Actor, access: RepoAccess, target: { runId: number } | { jobId: number }): Promise<void> {
    this.assertWrite(actor, access);
    const run = 'runId' in target ? await this.get(access, target.runId) : (await this.job(access, target.jobId)).run;
    if (!isDone(run.status)) throw new BadRequestError('this workflow run is not done');
    const { run: settled, changed } = await this.ctx.transaction(async (tx) => {
      const store = tx.store(RunsStore);
      const now = nowUnix();
      const jobs = await store.jobsOfRun(run.id);
      const chosen = new Set<string>();
      if ('jobId' in target) {
        const first = jobs.find((job) => job.id === target.jobId)!;
        chosen.add(first.job_id);
        // The jobs that need a rerun job run again too (transitively).
        for (let grew = true; grew; ) {
          grew = false;
          for (const job of jobs) {
            if (!chosen.has(job.job_id) && jobNeeds(job).some((need) => chosen.has(need))) {
              chosen.add(job.job_id);
              grew = true;
            }
          }
        }
      }
      const changed: ActionRunJob[] = [];
      for (const job of jobs) {
        if (chosen.size && !chosen.has(job.job_id)) continue;
        const status = jobNeeds(job).length ? ActionStatus.Blocked : ActionStatus.Waiting;
        if (!(await store.moveJob(job.id, [ActionStatus.Success, ActionStatus.Failure, ActionStatus.Cancelled, ActionStatus.Skipped], { status, task_id: 0, started: 0, stopped: 0 }, now))) continue;
        changed.push({ ...job, status, task_id: 0, started: 0, stopped: 0 });
      }
      await store.setRunStatus(run.id, { status: ActionStatus.Waiting, started: 0, stopped: 0 }, now);
      await store.increaseTasksVersion(run.owner_id, run.repo_id);
      const settledRun = await settleRun(tx, run.id);
      return { run: settledRun.run ?? run, changed: [...changed.filter((job) => !settledRun.changed.some((other) => other.id === job.id)), ...settledRun.changed] };
    });
    await reportJobStatuses(this.ctx, settled, changed);
  }

  /** Deletes a finished run with its jobs, tasks and logs (Forgejo refuses one still going). */
  async delete(actor: Actor, access: RepoAccess, runId: number): Promise<void> {
    this.assertWrite(actor, access);
    const run = await this.get(access, runId);
    if (!isDone(run.status)) throw new BadRequestError('this workflow run is not done');
    await this.ctx.transaction(async (tx) => tx.store(RunsStore).deleteRun(run.id));
  }
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end < 0 ? text : text.slice(0, end)).trim();
}

function userActor(user: User): Actor {
  return { kind: 'user', user, publicOnly: false };
}
