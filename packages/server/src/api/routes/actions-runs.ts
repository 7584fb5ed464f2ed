import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import {
  ActionRunJobSchema,
  ActionRunSchema,
  ActionTaskResponseSchema,
  DispatchWorkflowOptionSchema,
  DispatchWorkflowRunSchema,
  ListActionRunResponseSchema,
  RunsService,
  ValidationError,
  actionStatusOfName,
  toApiActionRun,
  toApiActionRunJob,
  toApiActionTask,
  type ActionRun,
  type ActionStatus,
  type ActionTask,
  type StoredLogLine,
  type RepoAccess,
  type RepoHost,
  clampPage,
} from '@repohost/core';
import { setPaginationHeaders, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, pathId } from './common.js';

const RunListQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results, default maximum page size is 50' })),
  event: Type.Optional(Type.Array(Type.String(), { description: 'Returns workflow run triggered by the specified events. For example, `push`, `pull_request` or `workflow_dispatch`.' })),
  status: Type.Optional(Type.Array(Type.String(), { description: 'Returns workflow runs with the check run status or conclusion that is specified.' })),
  run_number: Type.Optional(Type.Integer({ description: 'Returns the workflow run associated with the run number.' })),
  head_sha: Type.Optional(Type.String({ description: 'Only returns workflow runs that are associated with the specified head_sha.' })),
  ref: Type.Optional(Type.String({ description: 'Only return workflow runs that involve the given Git reference, for example, `refs/heads/main`.' })),
  workflow_id: Type.Optional(Type.String({ description: 'Only return workflow runs that involve the given workflow ID.' })),
});

const TaskListQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results, default maximum page size is 50' })),
  status: Type.Optional(Type.Array(Type.String(), { description: 'Returns workflow tasks with the check run status or conclusion that is specified' })),
});

const JobLogsQuerySchema = Type.Object({
  attempt: Type.Optional(Type.Integer({ description: '1-based attempt number matching the value of `attempt` in the job listing; omit for the latest attempt.' })),
  step: Type.Optional(Type.Integer({ description: 'Step number to filter to. Use the `number` field from `GET /repos/{owner}/{repo}/actions/jobs/{job_id}`.' })),
  q: Type.Optional(Type.String({ description: "Substring filter applied to each line's content (the part after the timestamp prefix)." })),
  qi: Type.Optional(Type.Boolean({ description: 'Case-insensitive substring match (only meaningful when `q` is set).' })),
  format: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('ndjson')], { description: 'Response shape. `text` (default) returns log content as plaintext lines. `ndjson` returns one JSON object per line.' })),
});

/** Status names as the list filters take them; a name Forgejo does not know is refused (its 400). */
function statusesOf(names: readonly string[] | undefined): ActionStatus[] {
  return (names ?? []).map((name) => {
    const status = actionStatusOfName(name);
    if (status === undefined) throw new ValidationError('status', `invalid status ${JSON.stringify(name)}`);
    return status;
  });
}

const runs = (host: RepoHost) => host.service(RunsService);

/**
 * Workflow runs of a repository and what can be done to them: list and read runs, their jobs (with steps), a job's
 * log, the tasks list, cancel, rerun (a run, or a job and the jobs that need it), delete, and dispatch.
 */
export function registerActionsRunRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/actions/runs',
    operationId: 'ListActionRuns',
    summary: "List a repository's action runs",
    query: RunListQuerySchema,
    reply: { status: 200, description: 'ActionRunList', schema: ListActionRunResponseSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, repo, query, view, event, responseHeaders }) => {
      const page = clampPage(host.settings, query);
      const found = await runs(host).list(
        repo,
        { events: query.event, statuses: statusesOf(query.status), index: query.run_number, commitSha: query.head_sha, ref: query.ref, workflowId: query.workflow_id },
        page,
      );
      setPaginationHeaders(responseHeaders, host.settings.server.ROOT_URL, event.url, page, found.total);
      const triggers = await runs(host).triggerUsers(found.items);
      return { total_count: found.total, workflow_runs: found.items.map((run) => toApiActionRun(run, repo, triggers.get(run.trigger_user_id), view)) };
    },
  });

  const run = repo.nest('/actions/runs/{run_id}', async ({ host, repo, params }) => ({ run: await runs(host).get(repo, pathId(params.run_id)) }));
  run.add({
    method: 'GET',
    path: '',
    operationId: 'ActionRun',
    summary: 'Get an action run',
    reply: { status: 200, description: 'ActionRun', schema: ActionRunSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, repo, run, view }) => toApiActionRun(run, repo, (await runs(host).triggerUsers([run])).get(run.trigger_user_id), view),
  });
  run.add({
    method: 'DELETE',
    path: '',
    operationId: 'DeleteActionRun',
    summary: 'Delete a completed workflow run.',
    reply: { status: 204, description: 'Workflow run has been removed' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, run }) => runs(host).delete(actor, repo, run.id),
  });
  run.add({
    method: 'GET',
    path: '/jobs',
    operationId: 'ListActionRunJobs',
    summary: 'List jobs of a workflow run',
    reply: { status: 200, description: 'ActionRunJobList', schema: Type.Array(ActionRunJobSchema) },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, repo, run, view }) => {
      const { jobs } = await runs(host).jobs(repo, run.id);
      const steps = await runs(host).stepsOfJobs(jobs);
      return jobs.map((job, position) => toApiActionRunJob(job, view, { access: repo, run, position, steps: steps.get(job.task_id) ?? [] }));
    },
  });
  run.add({
    method: 'GET',
    path: '/logs',
    operationId: 'repoGetActionRunLogs',
    summary: 'Download a ZIP of plaintext logs for every job in an action run',
    reply: { status: 200, description: 'ZIP archive of per-job log files', produces: ['application/zip'] },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, repo, run, responseHeaders }) => runLogsZip(host, repo, run, responseHeaders),
  });
  run.add({
    method: 'POST',
    path: '/cancel',
    operationId: 'CancelActionRun',
    summary: 'Cancel a pending or running workflow run.',
    reply: { status: 204, description: 'Workflow run has been cancelled' },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, repo, run }) => runs(host).cancel(actor, repo, run.id),
  });
  run.add({
    method: 'POST',
    path: '/rerun',
    operationId: 'RerunActionRun',
    summary: 'Rerun a finished (succeeded, failed, cancelled or skipped) workflow run.',
    reply: { status: 204, description: 'Workflow rerun has been started' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, run }) => runs(host).rerun(actor, repo, { runId: run.id }),
  });

  const job = repo.nest('/actions/jobs/{job_id}', async ({ host, repo, params }) => ({ found: await runs(host).job(repo, pathId(params.job_id)) }));
  job.add({
    method: 'GET',
    path: '',
    operationId: 'repoGetActionJob',
    summary: 'Get a single workflow run job, including its step list',
    reply: { status: 200, description: 'ActionRunJob', schema: ActionRunJobSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, repo, found, view }) => {
      const steps = await runs(host).stepsOfJobs([found.job]);
      return toApiActionRunJob(found.job, view, { access: repo, run: found.run, position: found.position, steps: steps.get(found.job.task_id) ?? [] });
    },
  });
  job.add({
    method: 'GET',
    path: '/logs',
    operationId: 'repoGetActionJobLogs',
    summary: 'Download the plaintext logs of an action job',
    query: JobLogsQuerySchema,
    reply: { status: 200, description: 'Plaintext log content (or NDJSON when `format=ndjson`)', produces: ['text/plain', 'application/x-ndjson'] },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, repo, found, query, responseHeaders }) => jobLogs(host, repo, found.job.id, query, responseHeaders),
  });
  job.add({
    method: 'POST',
    path: '/rerun',
    operationId: 'repoRerunActionJob',
    summary: 'Rerun a completed workflow job and its dependent jobs',
    reply: { status: 204, description: 'Workflow job rerun has been started' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, found }) => runs(host).rerun(actor, repo, { jobId: found.job.id }),
  });

  repo.add({
    method: 'GET',
    path: '/actions/tasks',
    operationId: 'ListActionTasks',
    summary: "List a repository's action tasks",
    query: TaskListQuerySchema,
    reply: { status: 200, description: 'TasksList', schema: ActionTaskResponseSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, repo, query, view, event, responseHeaders }) => {
      const page = clampPage(host.settings, query);
      const found = await runs(host).tasks(repo, statusesOf(query.status), page);
      setPaginationHeaders(responseHeaders, host.settings.server.ROOT_URL, event.url, page, found.page.total);
      return {
        total_count: found.page.total,
        workflow_runs: found.page.items.map((task) => {
          const taskJob = found.jobs.get(task.job_id);
          return toApiActionTask(task, taskJob, taskJob && found.runs.get(taskJob.run_id), repo, view);
        }),
      };
    },
  });

  repo.add({
    method: 'POST',
    path: '/actions/workflows/{workflowfilename}/dispatches',
    operationId: 'DispatchWorkflow',
    summary: 'Dispatches a workflow',
    body: DispatchWorkflowOptionSchema,
    reply: { status: 201, description: 'DispatchWorkflowRun', schema: DispatchWorkflowRunSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params, body, responseHeaders }) => {
      const started = await runs(host).dispatch(actor, repo, params.workflowfilename, body);
      if (!body.return_run_info) return new Response(null, { status: 204, headers: responseHeaders });
      return { id: started.run.id, run_number: started.run.index, jobs: started.jobs.map((job) => job.name) };
    },
  });
}

/** Log lines read from the database per query while a log is streamed out. */
const LOG_BATCH = 2000;

/** A log line as the plaintext logs show it: the time in RFC 3339, a space, the content. */
function logLineText(line: StoredLogLine): string {
  return `${new Date(line.time).toISOString()} ${line.content}`;
}

/** A task's log lines as `repoGetActionJobLogs` writes them, read in batches. */
async function* taskLogText(host: RepoHost, task: ActionTask): AsyncGenerator<Buffer> {
  for (let from = 0; from < task.log_length; from += LOG_BATCH) {
    const lines = await runs(host).logLines(task, from, Math.min(task.log_length, from + LOG_BATCH));
    if (lines.length === 0) return;
    yield Buffer.from(lines.map((line) => `${logLineText(line)}\n`).join(''));
  }
}

/**
 * `repoGetActionRunLogs`: a ZIP with one plaintext log per job (`<position>_<job name>.txt`, the current attempt's),
 * streamed: each log is read in batches and deflated by zlib off the event loop as it goes out.
 */
async function runLogsZip(host: RepoHost, access: RepoAccess, run: ActionRun, responseHeaders: Record<string, string>): Promise<Response> {
  const { jobs } = await runs(host).jobs(access, run.id);
  const tasks = await runs(host).tasksOfJobs(jobs);
  // The zip writer loads with the first archive asked for, not with the server.
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  jobs.forEach((job, position) => {
    const task = tasks.get(job.task_id);
    const name = `${position}_${job.name.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_')}.txt`;
    zip.addReadStream(task ? Readable.from(taskLogText(host, task)) : Readable.from([]), name, { mtime: new Date((job.stopped || job.updated) * 1000) });
  });
  zip.end();
  const headers = {
    ...responseHeaders,
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="${access.repo.name.replace(/[^\w.-]/g, '_')}-run-${run.index}-logs.zip"`,
  };
  return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream, { status: 200, headers });
}

/**
 * A job's log as Forgejo's `repoGetActionJobLogs` gives it: one line per log line, `<RFC 3339 time> <content>`, or
 * NDJSON; filtered to a step (0 "Set up job", 1…N the steps, N+1 "Complete job") and to lines containing `q`.
 */
async function jobLogs(
  host: RepoHost,
  access: RepoAccess,
  jobId: number,
  query: { attempt?: number; step?: number; q?: string; qi?: boolean; format?: 'text' | 'ndjson' },
  responseHeaders: Record<string, string>,
): Promise<Response> {
  const { task, steps } = await runs(host).jobTask(access, jobId, query.attempt);
  let from = 0;
  let to = task?.log_length ?? 0;
  if (query.step !== undefined && task) {
    const first = steps[0];
    const last = steps.at(-1);
    if (query.step < 0 || query.step > steps.length + 1) throw new ValidationError('step', 'no such step');
    if (query.step === 0) to = first ? first.log_index : to;
    else if (query.step === steps.length + 1) from = last ? last.log_index + last.log_length : 0;
    else {
      const step = steps[query.step - 1]!;
      from = step.log_index;
      to = step.log_index + step.log_length;
    }
  }
  const needle = query.q === undefined ? undefined : query.qi ? query.q.toLowerCase() : query.q;
  const ndjson = query.format === 'ndjson';
  const render = (line: StoredLogLine) => (ndjson ? JSON.stringify({ line: line.line, time: new Date(line.time).toISOString(), content: line.content }) : logLineText(line));
  const headers = { ...responseHeaders, 'content-type': ndjson ? 'application/x-ndjson;charset=utf-8' : 'text/plain;charset=utf-8' };
  if (!task || to <= from) return new Response('', { status: 200, headers: { ...headers, 'content-length': '0' } });
  // A log may hold 64 MiB: read and sent in batches, never whole in memory.
  async function* text(): AsyncGenerator<Buffer> {
    for (let start = from; start < to; start += LOG_BATCH) {
      const lines = await runs(host).logLines(task!, start, Math.min(to, start + LOG_BATCH));
      if (lines.length === 0) return;
      const kept = needle === undefined ? lines : lines.filter((line) => (query.qi ? line.content.toLowerCase() : line.content).includes(needle));
      if (kept.length) yield Buffer.from(kept.map((line) => `${render(line)}\n`).join(''));
    }
  }
  return new Response(Readable.toWeb(Readable.from(text())) as ReadableStream, { status: 200, headers });
}
