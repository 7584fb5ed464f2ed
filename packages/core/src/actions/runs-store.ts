import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { ActionStatus } from './status.js';
import type { ActionRun, ActionRunJob, ActionRunJobTable, ActionRunTable, ActionTask, ActionTaskStep, ActionTaskTable, ActionsTables } from './tables.js';

export type NewRun = Omit<ActionRunTable, 'id' | 'index'>;
export type NewJob = Omit<ActionRunJobTable, 'id' | 'run_id'>;
export type NewTask = Omit<ActionTaskTable, 'id'>;

/** The filters of a run list (`GET …/actions/runs`). */
export interface RunFilter {
  events?: readonly string[];
  statuses?: readonly number[];
  index?: number;
  commitSha?: string;
  ref?: string;
  workflowId?: string;
}

/** Which jobs a runner may take: every repository's (an instance runner), an account's, or one repository's. */
export type JobScope = { all: true } | { all?: false; ownerId: number; repoId: number };

/** A log line as stored. */
export interface StoredLogLine {
  line: number;
  time: number;
  content: string;
}

/** The workflow run tables: runs, jobs, tasks with their steps, outputs and log lines, and the tasks versions. */
export class RunsStore extends Store<ActionsTables> {
  // ---- runs ----

  /**
   * Adds a run with the repository's next index, or returns the run its trigger key already made (a detection that
   * ran again). The index comes from the repository's counter row, which the upsert locks until the transaction ends.
   */
  async insertRun(run: NewRun): Promise<{ run: ActionRun; created: boolean }> {
    const existing = await this.runByTrigger(run.repo_id, run.trigger_key);
    if (existing) return { run: existing, created: false };
    const counter = await this.db
      .insertInto('action_run_index')
      .values({ repo_id: run.repo_id, last_index: 1 })
      .onConflict((oc) => oc.column('repo_id').doUpdateSet((eb) => ({ last_index: eb('action_run_index.last_index', '+', 1) })))
      .returning('last_index')
      .executeTakeFirstOrThrow();
    const inserted = await this.db
      .insertInto('action_run')
      .values({ ...run, index: Number(counter.last_index) })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { run: inserted, created: true };
  }

  runByTrigger(repoId: number, triggerKey: string): Promise<ActionRun | undefined> {
    return this.db.selectFrom('action_run').selectAll().where('repo_id', '=', repoId).where('trigger_key', '=', triggerKey).executeTakeFirst();
  }

  runById(id: number): Promise<ActionRun | undefined> {
    return this.db.selectFrom('action_run').selectAll().where('id', '=', id).executeTakeFirst();
  }

  runsByIds(ids: readonly number[]): Promise<ActionRun[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('action_run').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  /** A page of the repository's runs, newest first (Forgejo's order). */
  runs(repoId: number, filter: RunFilter, page: PageRequest): Promise<Page<ActionRun>> {
    let query = this.db.selectFrom('action_run').where('repo_id', '=', repoId);
    if (filter.events?.length) query = query.where('event', 'in', [...filter.events]);
    if (filter.statuses?.length) query = query.where('status', 'in', [...filter.statuses]);
    if (filter.index !== undefined) query = query.where('index', '=', filter.index);
    if (filter.commitSha !== undefined) query = query.where('commit_sha', '=', filter.commitSha);
    if (filter.ref !== undefined) query = query.where('ref', '=', filter.ref);
    if (filter.workflowId !== undefined) query = query.where('workflow_id', '=', filter.workflowId);
    return Store.page(query.selectAll().orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(), query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /**
   * The repository's run, of any workflow, ref or event, that finished last before `run` did (Forgejo's
   * `GetRunBefore`); runs stopped in the same second are told apart by their ids.
   */
  runFinishedBefore(run: Pick<ActionRun, 'id' | 'repo_id' | 'stopped'>): Promise<ActionRun | undefined> {
    return this.db
      .selectFrom('action_run')
      .selectAll()
      .where('repo_id', '=', run.repo_id)
      .where('status', 'in', [ActionStatus.Success, ActionStatus.Failure, ActionStatus.Cancelled, ActionStatus.Skipped])
      .where('stopped', '>', 0)
      .where((eb) => eb.or([eb('stopped', '<', run.stopped), eb.and([eb('stopped', '=', run.stopped), eb('id', '<', run.id)])]))
      .orderBy('stopped', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Takes the run's row lock until the transaction ends (PostgreSQL; SQLite runs one writer at a time): jobs of one
   * run finishing at once settle the run one after the other, each reading the jobs the other committed.
   */
  async lockRun(id: number): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres' || !this.scope.inTransaction) return;
    await this.db.selectFrom('action_run').select('id').where('id', '=', id).forUpdate().execute();
  }

  async setRunStatus(id: number, fields: Partial<Pick<ActionRun, 'status' | 'started' | 'stopped'>>, now: number): Promise<void> {
    await this.db.updateTable('action_run').set({ ...fields, updated: now }).where('id', '=', id).execute();
  }

  /** Removes a run with its jobs, tasks, steps, outputs and log lines. */
  async deleteRun(id: number): Promise<void> {
    const tasks = this.db.selectFrom('action_task').select('id').where('job_id', 'in', this.db.selectFrom('action_run_job').select('id').where('run_id', '=', id));
    await this.db.deleteFrom('action_task_log').where('task_id', 'in', tasks).execute();
    await this.db.deleteFrom('action_task_step').where('task_id', 'in', tasks).execute();
    await this.db.deleteFrom('action_task_output').where('task_id', 'in', tasks).execute();
    await this.db.deleteFrom('action_task').where('job_id', 'in', this.db.selectFrom('action_run_job').select('id').where('run_id', '=', id)).execute();
    await this.db.deleteFrom('action_run_job').where('run_id', '=', id).execute();
    await this.db.deleteFrom('action_run').where('id', '=', id).execute();
  }

  /** Every run of a repository (the repository is being deleted). */
  async deleteRunsOfRepo(repoId: number): Promise<void> {
    const tasks = this.db.selectFrom('action_task').select('id').where('repo_id', '=', repoId);
    await this.db.deleteFrom('action_task_log').where('task_id', 'in', tasks).execute();
    await this.db.deleteFrom('action_task_step').where('task_id', 'in', tasks).execute();
    await this.db.deleteFrom('action_task_output').where('task_id', 'in', tasks).execute();
    await this.db.deleteFrom('action_task').where('repo_id', '=', repoId).execute();
    await this.db.deleteFrom('action_run_job').where('repo_id', '=', repoId).execute();
    await this.db.deleteFrom('action_run').where('repo_id', '=', repoId).execute();
    await this.db.deleteFrom('action_run_index').where('repo_id', '=', repoId).execute();
  }

  // ---- jobs ----

  async insertJobs(runId: number, jobs: readonly NewJob[]): Promise<ActionRunJob[]> {
    if (jobs.length === 0) return [];
    return this.db
      .insertInto('action_run_job')
      .values(jobs.map((job) => ({ ...job, run_id: runId })))
      .returningAll()
      .execute()
      .then((rows) => rows.sort((a, b) => a.id - b.id));
  }

  jobById(id: number): Promise<ActionRunJob | undefined> {
    return this.db.selectFrom('action_run_job').selectAll().where('id', '=', id).executeTakeFirst();
  }

  jobsByIds(ids: readonly number[]): Promise<ActionRunJob[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('action_run_job').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  jobsOfRun(runId: number): Promise<ActionRunJob[]> {
    return this.db.selectFrom('action_run_job').selectAll().where('run_id', '=', runId).orderBy('id').execute();
  }

  /** Jobs waiting for a runner in the scope, oldest first, at most `limit`. */
  waitingJobs(scope: JobScope, limit: number): Promise<ActionRunJob[]> {
    let query = this.db.selectFrom('action_run_job').selectAll().where('status', '=', sql.lit(ActionStatus.Waiting)).where('task_id', '=', 0);
    if (!scope.all) query = scope.repoId !== 0 ? query.where('repo_id', '=', scope.repoId) : query.where('owner_id', '=', scope.ownerId);
    return query.orderBy('id').limit(limit).execute();
  }

  /** Jobs waiting or running in the scope (the runners API's `…/runners/jobs`), oldest first. */
  activeJobs(scope: JobScope, limit: number): Promise<ActionRunJob[]> {
    let query = this.db
      .selectFrom('action_run_job')
      .selectAll()
      .where('status', 'in', [ActionStatus.Waiting, ActionStatus.Running]);
    if (!scope.all) query = scope.repoId !== 0 ? query.where('repo_id', '=', scope.repoId) : query.where('owner_id', '=', scope.ownerId);
    return query.orderBy('id').limit(limit).execute();
  }

  /** Takes a waiting job for a task: true only for the one caller that found it still waiting. */
  async claimJob(jobId: number, taskId: number, attempt: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('action_run_job')
      .set({ task_id: taskId, attempt, status: ActionStatus.Running, started: now, updated: now })
      .where('id', '=', jobId)
      .where('status', '=', ActionStatus.Waiting)
      .where('task_id', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async updateJob(id: number, fields: Partial<Pick<ActionRunJob, 'status' | 'started' | 'stopped' | 'task_id' | 'attempt'>>, now: number): Promise<void> {
    await this.db.updateTable('action_run_job').set({ ...fields, updated: now }).where('id', '=', id).execute();
  }

  /** Moves a job from one status to another only if it is still in the first (a concurrent change wins). */
  async moveJob(id: number, from: readonly number[], fields: Partial<Pick<ActionRunJob, 'status' | 'started' | 'stopped' | 'task_id' | 'attempt'>>, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('action_run_job')
      .set({ ...fields, updated: now })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  // ---- tasks ----

  /** Reserves a task row for a job (its id is the task id the job is claimed with). */
  insertTask(task: NewTask): Promise<ActionTask> {
    return this.db.insertInto('action_task').values(task).returningAll().executeTakeFirstOrThrow();
  }

  async deleteTask(id: number): Promise<void> {
    await this.db.deleteFrom('action_task').where('id', '=', id).execute();
  }

  taskById(id: number): Promise<ActionTask | undefined> {
    return this.db.selectFrom('action_task').selectAll().where('id', '=', id).executeTakeFirst();
  }

  tasksByIds(ids: readonly number[]): Promise<ActionTask[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('action_task').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  /** Tasks whose token ends with these eight characters (the candidates a presented token is checked against). */
  tasksByTokenEnd(lastEight: string): Promise<ActionTask[]> {
    return this.db.selectFrom('action_task').selectAll().where('token_last_eight', '=', lastEight).limit(16).execute();
  }

  /** Tasks a runner has taken, newest first, at most `limit`. */
  tasksOfRunner(runnerId: number, limit: number): Promise<ActionTask[]> {
    return this.db.selectFrom('action_task').selectAll().where('runner_id', '=', runnerId).orderBy('id', 'desc').limit(limit).execute();
  }

  /** The tasks of a job, every attempt, oldest first. */
  tasksOfJob(jobId: number): Promise<ActionTask[]> {
    return this.db.selectFrom('action_task').selectAll().where('job_id', '=', jobId).orderBy('attempt').execute();
  }

  /** A page of the repository's tasks, newest first, with the statuses asked for. */
  tasks(repoId: number, statuses: readonly number[], page: PageRequest): Promise<Page<ActionTask>> {
    let query = this.db.selectFrom('action_task').where('repo_id', '=', repoId);
    if (statuses.length) query = query.where('status', 'in', [...statuses]);
    return Store.page(query.selectAll().orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(), query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** A running task of the runner, still running (finishing and cancelling race through here). */
  async updateTask(id: number, from: readonly number[], fields: Partial<Pick<ActionTask, 'status' | 'started' | 'stopped'>>, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('action_task')
      .set({ ...fields, updated: now })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Running tasks whose `column` is before `before` (runners gone silent, tasks running too long), oldest first. */
  runningTasksBefore(column: 'updated' | 'started', before: number, limit: number): Promise<ActionTask[]> {
    return this.db
      .selectFrom('action_task')
      .selectAll()
      .where('status', '=', sql.lit(ActionStatus.Running))
      .where(column, '<', before)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Jobs still waiting for a runner since before `before`. */
  waitingJobsBefore(before: number, limit: number): Promise<ActionRunJob[]> {
    return this.db.selectFrom('action_run_job').selectAll().where('status', '=', sql.lit(ActionStatus.Waiting)).where('updated', '<', before).orderBy('id').limit(limit).execute();
  }

  async touchTask(id: number, now: number): Promise<void> {
    await this.db.updateTable('action_task').set({ updated: now }).where('id', '=', id).execute();
  }

  stepsOfTask(taskId: number): Promise<ActionTaskStep[]> {
    return this.db.selectFrom('action_task_step').selectAll().where('task_id', '=', taskId).orderBy('index').execute();
  }

  stepsOfTasks(taskIds: readonly number[]): Promise<ActionTaskStep[]> {
    if (taskIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('action_task_step').selectAll().where('task_id', 'in', [...new Set(taskIds)]).orderBy('task_id').orderBy('index').execute();
  }

  async insertSteps(taskId: number, names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    await this.db
      .insertInto('action_task_step')
      .values(names.map((name, index) => ({ task_id: taskId, index, name, status: ActionStatus.Waiting, log_index: 0, log_length: 0, started: 0, stopped: 0 })))
      .execute();
  }

  async updateStep(taskId: number, index: number, fields: Partial<Pick<ActionTaskStep, 'status' | 'log_index' | 'log_length' | 'started' | 'stopped'>>): Promise<void> {
    await this.db.updateTable('action_task_step').set(fields).where('task_id', '=', taskId).where('index', '=', index).execute();
  }

  /** Records outputs not recorded yet (the first value of a key stays, as Forgejo keeps it); returns every key kept. */
  async addOutputs(taskId: number, outputs: ReadonlyMap<string, string>): Promise<string[]> {
    const existing = await this.outputsOfTask(taskId);
    const fresh = [...outputs].filter(([key]) => !existing.has(key));
    if (fresh.length) {
      await this.db
        .insertInto('action_task_output')
        .values(fresh.map(([output_key, output_value]) => ({ task_id: taskId, output_key, output_value })))
        .onConflict((oc) => oc.columns(['task_id', 'output_key']).doNothing())
        .execute();
    }
    return [...new Set([...existing.keys(), ...fresh.map(([key]) => key)])];
  }

  async outputsOfTask(taskId: number): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('action_task_output').select(['output_key', 'output_value']).where('task_id', '=', taskId).execute();
    return new Map(rows.map((row) => [row.output_key, row.output_value]));
  }

  // ---- log lines ----

  /**
   * Appends lines at the task's current length, only if that is still `expectedLength` (two appends racing: the
   * second finds the length moved and is told the new one). Returns the new length, or undefined when it moved.
   */
  async appendLog(taskId: number, expectedLength: number, lines: readonly { time: number; content: string }[], bytes: number, now: number): Promise<number | undefined> {
    const moved = await this.db
      .updateTable('action_task')
      .set((eb) => ({ log_length: eb('log_length', '+', lines.length), log_size: eb('log_size', '+', bytes), updated: now }))
      .where('id', '=', taskId)
      .where('log_length', '=', expectedLength)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return undefined;
    if (lines.length) {
      await this.db
        .insertInto('action_task_log')
        .values(lines.map((line, i) => ({ task_id: taskId, line: expectedLength + i, time: line.time, content: line.content })))
        .execute();
    }
    return expectedLength + lines.length;
  }

  async markLogDone(taskId: number): Promise<void> {
    await this.db.updateTable('action_task').set({ log_done: 1 }).where('id', '=', taskId).execute();
  }

  /** Lines `from` (inclusive) to `to` (exclusive) of a task's log. */
  logLines(taskId: number, from: number, to: number): Promise<StoredLogLine[]> {
    return this.db
      .selectFrom('action_task_log')
      .select(['line', 'time', 'content'])
      .where('task_id', '=', taskId)
      .where('line', '>=', from)
      .where('line', '<', to)
      .orderBy('line')
      .execute();
  }

  // ---- tasks versions ----

  /** The version a runner of the scope compares (Forgejo's `GetTasksVersionByScope`). */
  async tasksVersion(ownerId: number, repoId: number): Promise<number> {
    const row = await this.db.selectFrom('action_tasks_version').select('version').where('owner_id', '=', ownerId).where('repo_id', '=', repoId).executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** Raises the versions of the instance, the owner and the repository (Forgejo's `IncreaseTaskVersion`). */
  async increaseTasksVersion(ownerId: number, repoId: number): Promise<void> {
    for (const [owner, repo] of [
      [0, 0],
      [ownerId, 0],
      [0, repoId],
    ] as const) {
      await this.db
        .insertInto('action_tasks_version')
        .values({ owner_id: owner, repo_id: repo, version: 1 })
        .onConflict((oc) => oc.columns(['owner_id', 'repo_id']).doUpdateSet((eb) => ({ version: eb('action_tasks_version.version', '+', 1) })))
        .execute();
    }
  }
}
