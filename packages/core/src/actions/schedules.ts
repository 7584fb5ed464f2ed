import type { CoreContext, CoreTransaction } from '../context.js';
import { SYSTEM, UsersPort, actorUser } from '../users/index.js';
import { ReposPort, ReposService, repoKey, type RepoAccess, type Repository } from '../repos/index.js';
import { JobsService, type JobRun } from '../jobs/index.js';
import { NotFoundError } from '../errors.js';
import { nowUnix } from '../storage/index.js';
import { nextScheduleTime } from './workflows/index.js';
import { cancelRun, reportJobStatuses } from './lifecycle.js';
import { RunsService, actionsEnabled } from './runs.js';
import { SchedulesStore } from './schedules-store.js';
import type { ActionSchedule, ActionScheduleSpec } from './tables.js';

declare module '../jobs/kinds.js' {
  interface JobPayloads {
    /**
     * A repository's schedule plans: its scheduled runs still going cancelled (`cancel`), and its plans read again
     * from its default branch (`rebuild`); `repoId` 0 rebuilds every repository's (Actions switched on again).
     */
    'actions.schedules': { repoId: number; actorId: number; cancel: boolean; rebuild: boolean };
  }
}

/** Due specs started per cron run at most (the next run takes the rest). */
const DUE_PER_RUN = 500;
/** Repositories read per batch when every repository's plans are made again. */
const REPOS_PER_BATCH = 200;

/**
 * Scheduled workflows as the service description binds them: a workflow of the default branch that declares
 * `schedule` becomes a plan (one spec per cron line); a cron task starts the runs that are due. When the Actions unit
 * of a repository is disabled, or switched off for the instance (`[actions] ENABLED`), or the default branch changes,
 * the repository's plans are removed and its scheduled runs still waiting or running are cancelled; when the unit is
 * enabled again (or the default branch has changed), the plans are made again from the default branch.
 */
export class SchedulesService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): SchedulesStore {
    return this.ctx.store(SchedulesStore);
  }

  subscribe(): void {
    const events = this.ctx.events;
    events.withinTransaction('repo.pushed', async ({ payload }, tx) => {
      const { repo } = payload;
      if (!actionsEnabled(this.ctx, repo)) return;
      const defaultRef = `refs/heads/${repo.default_branch}`;
      if (!payload.updates.some((update) => update.ref === defaultRef)) return;
      await this.enqueue(tx, repo.id, actorUser(payload.actor)?.id ?? 0, { cancel: false, rebuild: true });
    });
    events.withinTransaction('repo.edited', async ({ payload }, tx) => {
      const before = actionsEnabled(this.ctx, payload.previous);
      const after = actionsEnabled(this.ctx, payload.repo);
      const branchMoved = payload.previous.default_branch !== payload.repo.default_branch;
      if (!(before && !after) && !(after && (!before || branchMoved))) return;
      const actorId = actorUser(payload.actor)?.id ?? 0;
      // The plans go at once (no tick may start one after this commit); cancelling and reading again are a job's.
      if (before) await tx.store(SchedulesStore).deleteOfRepo(payload.repo.id);
      await this.enqueue(tx, payload.repo.id, actorId, { cancel: before && (!after || branchMoved), rebuild: after });
    });
    events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(SchedulesStore).deleteOfRepo(payload.repo.id));
  }

  private enqueue(tx: CoreTransaction, repoId: number, actorId: number, what: { cancel: boolean; rebuild: boolean }): Promise<unknown> {
    return this.ctx.service(JobsService).enqueue('actions.schedules', { repoId, actorId, ...what }, { tx });
  }

  /** The `actions.schedules` job. */
  async handleJob(run: JobRun<{ repoId: number; actorId: number; cancel: boolean; rebuild: boolean }>): Promise<void> {
    const { repoId, actorId, cancel, rebuild } = run.payload;
    if (repoId === 0) {
      await this.rebuildAll(run.signal);
      return;
    }
    if (cancel) await this.cancelScheduledRuns(repoId);
    if (!rebuild) return;
    let access: RepoAccess;
    try {
      access = await this.ctx.service(ReposService).resolveById(SYSTEM, repoId);
    } catch (error) {
      if (error instanceof NotFoundError) return;
      throw error;
    }
    await this.rebuild(access, actorId);
  }

  /** A repository's plans and their specs (what `/admin` views and the tests read). */
  async plans(repoId: number): Promise<{ schedules: ActionSchedule[]; specs: ActionScheduleSpec[] }> {
    return { schedules: await this.store.ofRepo(repoId), specs: await this.store.specsOfRepo(repoId) };
  }

  /** Cancels the scheduled runs of a repository (of all, `undefined`) that still wait or run. */
  async cancelScheduledRuns(repoId: number | undefined): Promise<number> {
    const runIds = await this.store.unfinishedScheduledRuns(repoId);
    for (const runId of runIds) {
      const { run, changed } = await this.ctx.transaction((tx) => cancelRun(tx, runId));
      if (run) await reportJobStatuses(this.ctx, run, changed);
    }
    return runIds.length;
  }

  /** Replaces a repository's plans with those its default branch declares now (Forgejo's `handleSchedules`). */
  async rebuild(access: RepoAccess, actorId: number): Promise<number> {
    const { repo } = access;
    if (!actionsEnabled(this.ctx, repo) || (await this.store.isSuspended())) {
      await this.ctx.transaction((tx) => tx.store(SchedulesStore).deleteOfRepo(repo.id));
      return 0;
    }
    const ref = `refs/heads/${repo.default_branch}`;
    const refs = await this.ctx.git.readRefs(repoKey(access.owner, repo), [ref]);
    const sha = refs.get(ref);
    const files = sha ? await this.ctx.service(RunsService).workflowFiles(access, sha) : [];
    const now = nowUnix();
    const answers = await this.ctx.service(RunsService).analyze(files, { kind: 'schedule', afterMs: now * 1000 });
    const plans = files.flatMap((file) => {
      const answer = answers.get(file.id);
      if (!answer?.matched || !answer.schedules) return [];
      const specs = answer.schedules.map((schedule) => ({ spec: schedule.spec, next: Math.floor(schedule.next / 1000) }));
      return [{ file, title: answer.name || file.id, specs }];
    });
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(SchedulesStore);
      await store.deleteOfRepo(repo.id);
      for (const plan of plans) {
        await store.insert(
          {
            repo_id: repo.id,
            owner_id: repo.owner_id,
            title: plan.title.slice(0, 255),
            workflow_dir: plan.file.dir,
            workflow_id: plan.file.id,
            trigger_user_id: actorId,
            ref,
            commit_sha: sha!,
            event_payload: '',
            content: plan.file.content!,
            created: now,
            updated: now,
          },
          plan.specs,
        );
      }
    });
    return plans.length;
  }

  /** Every repository's plans made again (Actions switched on for the instance after being off). */
  private async rebuildAll(signal: AbortSignal): Promise<void> {
    for (let after = 0; !signal.aborted; ) {
      const repos = await this.ctx.port(ReposPort).after(after, REPOS_PER_BATCH);
      if (repos.length === 0) break;
      for (const repo of repos) {
        if (!actionsEnabled(this.ctx, repo)) continue;
        await this.rebuildRepo(repo);
      }
      after = repos.at(-1)!.id;
    }
  }

  private async rebuildRepo(repo: Repository): Promise<void> {
    try {
      await this.rebuild(await this.ctx.service(ReposService).resolveById(SYSTEM, repo.id), repo.owner_id);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }

  /**
   * The start-up repair for the instance switch: off, every plan goes and every scheduled run still going is
   * cancelled (once: a marker row says it was done); on again after that, every repository's plans are made again.
   */
  async reconcileInstanceSwitch(): Promise<void> {
    const suspended = await this.store.isSuspended();
    if (!this.ctx.settings.actions.ENABLED) {
      if (suspended) return;
      await this.ctx.transaction(async (tx) => {
        const store = tx.store(SchedulesStore);
        await store.deleteOfRepo(undefined);
        await store.setSuspended(true, nowUnix());
      });
      await this.cancelScheduledRuns(undefined);
      return;
    }
    if (!suspended) return;
    await this.ctx.transaction(async (tx) => {
      await tx.store(SchedulesStore).setSuspended(false, nowUnix());
      await this.enqueue(tx, 0, 0, { cancel: false, rebuild: true });
    });
  }

  /** The cron task: starts the runs of the specs that are due, each once however many processes tick. */
  startDue(signal: AbortSignal): Promise<string> {
    return this.startDueAt(nowUnix(), signal);
  }

  /** `startDue` as of `now` (Unix seconds). */
  async startDueAt(now: number, signal?: AbortSignal): Promise<string> {
    if (!this.ctx.settings.actions.ENABLED) return 'Actions are disabled';
    let started = 0;
    for (const spec of await this.store.due(now, DUE_PER_RUN)) {
      if (signal?.aborted) break;
      const next = nextScheduleTime(spec.spec, now * 1000);
      // A spec that no longer parses (it did when stored) is never due again.
      if (!(await this.store.advance(spec, next === undefined ? Number.MAX_SAFE_INTEGER : Math.floor(next / 1000)))) continue;
      if (await this.startScheduled(spec)) started++;
    }
    return started === 0 ? 'no scheduled workflow due' : `${started} scheduled runs started`;
  }

  private async startScheduled(spec: ActionScheduleSpec): Promise<boolean> {
    const schedule = await this.store.byId(spec.schedule_id);
    if (!schedule) return false;
    let access: RepoAccess;
    try {
      access = await this.ctx.service(ReposService).resolveById(SYSTEM, schedule.repo_id);
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
    if (!actionsEnabled(this.ctx, access.repo)) return false;
    const file = { dir: schedule.workflow_dir, id: schedule.workflow_id, content: schedule.content };
    const analysis = (await this.ctx.service(RunsService).analyze([file], { kind: 'plan' })).get(file.id)!;
    const actor = (schedule.trigger_user_id > 0 ? await this.ctx.port(UsersPort).byId(schedule.trigger_user_id) : undefined) ?? access.owner;
    await this.ctx.service(RunsService).startRun({
      access,
      actor,
      file,
      analysis,
      ref: schedule.ref,
      sha: schedule.commit_sha,
      event: 'schedule',
      payload: { schedule: spec.spec },
      triggerKey: `schedule:${spec.id}:${spec.next}`,
      title: schedule.title,
      isFork: false,
      scheduleId: schedule.id,
    });
    return true;
  }
}
