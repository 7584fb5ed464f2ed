import { parse } from 'yaml';
import type { CoreContext, CoreTransaction } from '../context.js';
import { SYSTEM } from '../users/index.js';
import { ReposService } from '../repos/index.js';
import { CommitStatusesService } from '../commits/index.js';
import { webUrl } from '../urls.js';
import { nowUnix } from '../storage/index.js';
import { RunsStore } from './runs-store.js';
import { ActionStatus, aggregateStatus, commitStateOf, isDone } from './status.js';
import type { ActionRun, ActionRunJob } from './tables.js';
import './events.js';

/** Where a job's page is: the run's page and the job's position in it (Forgejo's `/actions/runs/{index}/jobs/{n}`). */
export function jobHtmlUrl(ctx: CoreContext, ownerName: string, repoName: string, run: Pick<ActionRun, 'index'>, position: number): string {
  return webUrl(ctx.settings, `${encodeURIComponent(ownerName)}/${encodeURIComponent(repoName)}/actions/runs/${run.index}/jobs/${position}`);
}

/** A job's `needs`, as stored (a JSON array of job keys). */
export function jobNeeds(job: Pick<ActionRunJob, 'needs'>): string[] {
  return jsonStrings(job.needs);
}

/** A job's `runs-on` labels, as stored. */
export function jobRunsOn(job: Pick<ActionRunJob, 'runs_on'>): string[] {
  return jsonStrings(job.runs_on);
}

function jsonStrings(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** The name a run's commit statuses carry: the workflow's `name:`, else its file name (Forgejo's `runName`). */
export function workflowDisplayName(run: Pick<ActionRun, 'workflow_id'>, payload: string): string {
  try {
    const document: unknown = parse(payload, { maxAliasCount: 0 });
    const name = document && typeof document === 'object' ? (document as Record<string, unknown>).name : undefined;
    if (typeof name === 'string' && name !== '') return name;
  } catch {
    // A payload is always one RepoHost wrote; a name it cannot read falls back to the file name.
  }
  return run.workflow_id;
}

/**
 * What happens to a run when one of its jobs changes state, in the transaction of that change: blocked jobs whose
 * needs are all done become waiting (every need succeeded) or skipped (one did not), repeatedly, since a skip may
 * settle the next; then the run takes the state its jobs make. Returns the jobs whose state changed (their commit
 * statuses follow after commit).
 */
export async function settleRun(tx: CoreTransaction, runId: number): Promise<{ run: ActionRun | undefined; changed: ActionRunJob[] }> {
  const store = tx.store(RunsStore);
  await store.lockRun(runId);
  const jobs = await store.jobsOfRun(runId);
  const changed: ActionRunJob[] = [];
  const now = nowUnix();
  for (let progress = true; progress; ) {
    progress = false;
    const byKey = new Map<string, ActionRunJob[]>();
    for (const job of jobs) byKey.set(job.job_id, [...(byKey.get(job.job_id) ?? []), job]);
    for (const job of jobs) {
      if (job.status !== ActionStatus.Blocked) continue;
      const needed = jobNeeds(job).flatMap((key) => byKey.get(key) ?? []);
      if (!needed.every((need) => isDone(need.status))) continue;
      const status = needed.every((need) => need.status === ActionStatus.Success) ? ActionStatus.Waiting : ActionStatus.Skipped;
      const stopped = status === ActionStatus.Skipped ? now : 0;
      if (!(await store.moveJob(job.id, [ActionStatus.Blocked], { status, stopped }, now))) continue;
      job.status = status;
      job.stopped = stopped;
      changed.push(job);
      progress = true;
    }
  }
  if (changed.some((job) => job.status === ActionStatus.Waiting)) {
    const first = jobs[0]!;
    await store.increaseTasksVersion(first.owner_id, first.repo_id);
  }
  const run = await store.runById(runId);
  if (run) {
    const status = aggregateStatus(jobs.map((job) => job.status));
    const started = run.started || (status === ActionStatus.Running || isDone(status) ? now : 0);
    const stopped = isDone(status) ? run.stopped || now : 0;
    if (status !== run.status || started !== run.started || stopped !== run.stopped) {
      await store.setRunStatus(run.id, { status, started, stopped }, now);
      // Forgejo's ActionRunNowDone: the run has just finished (its webhooks are queued in this transaction).
      if (isDone(status) && !isDone(run.status)) tx.emit('actions.run_done', { runId: run.id, priorStatus: run.status });
      Object.assign(run, { status, started, stopped, updated: now });
    }
  }
  return { run, changed };
}

/**
 * Cancels every unfinished job of a run and their tasks (a runner learns it at its next report), in the caller's
 * transaction; the run settles. Returns the run and the jobs whose state changed.
 */
export async function cancelRun(tx: CoreTransaction, runId: number): Promise<{ run: ActionRun | undefined; changed: ActionRunJob[] }> {
  const store = tx.store(RunsStore);
  const now = nowUnix();
  const changed: ActionRunJob[] = [];
  for (const job of await store.jobsOfRun(runId)) {
    if (isDone(job.status)) continue;
    if (!(await store.moveJob(job.id, [ActionStatus.Waiting, ActionStatus.Blocked, ActionStatus.Running], { status: ActionStatus.Cancelled, stopped: now }, now))) continue;
    if (job.task_id) await store.updateTask(job.task_id, [ActionStatus.Running, ActionStatus.Waiting], { status: ActionStatus.Cancelled, stopped: now }, now);
    changed.push({ ...job, status: ActionStatus.Cancelled, stopped: now });
  }
  const settled = await settleRun(tx, runId);
  return { run: settled.run, changed: [...changed, ...settled.changed] };
}

/**
 * Reports jobs' states as commit statuses of the run's commit (Forgejo's `CreateCommitStatus` for Actions), after
 * the change committed. Best effort: a status that cannot be written (the repository went meanwhile) is logged.
 */
export async function reportJobStatuses(ctx: CoreContext, run: ActionRun, jobs: readonly ActionRunJob[]): Promise<void> {
  if (jobs.length === 0) return;
  try {
    const access = await ctx.service(ReposService).resolveById(SYSTEM, run.repo_id);
    const all = await ctx.store(RunsStore).jobsOfRun(run.id);
    for (const job of jobs) {
      const position = all.findIndex((candidate) => candidate.id === job.id);
      const name = workflowDisplayName(run, job.workflow_payload);
      await ctx.service(CommitStatusesService).create(SYSTEM, access, run.commit_sha, {
        state: commitStateOf(job.status),
        context: `${name} / ${job.name} (${run.trigger_event})`,
        description: statusDescription(job),
        target_url: jobHtmlUrl(ctx, access.owner.name, access.repo.name, run, Math.max(0, position)),
      });
    }
  } catch (error) {
    console.error(`[repohost] actions: no commit status for run ${run.id}:`, error);
  }
}

/** Forgejo's descriptions of a job's commit status. */
function statusDescription(job: ActionRunJob): string {
  const seconds = job.started && job.stopped ? Math.max(0, job.stopped - job.started) : 0;
  switch (job.status) {
    case ActionStatus.Success:
      return `Successful in ${seconds}s`;
    case ActionStatus.Failure:
      return `Failing after ${seconds}s`;
    case ActionStatus.Cancelled:
      return 'Has been cancelled';
    case ActionStatus.Skipped:
      return 'Has been skipped';
    case ActionStatus.Running:
      return 'Has started running';
    case ActionStatus.Blocked:
      return 'Blocked by required conditions';
    default:
      return 'Waiting to run';
  }
}
