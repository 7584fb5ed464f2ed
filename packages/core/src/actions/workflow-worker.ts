/**
 * Reading workflow files, in a worker thread (`workflow-pool.ts`): parsing YAML, matching an event and planning jobs
 * take time in proportion to what a user committed (a file may hold 256 KiB), so none of it runs on the event loop.
 * Pure: files and a question in, plain data out.
 */
import {
  matchesDispatch,
  matchesPullRequest,
  matchesPush,
  nextScheduleTime,
  parseWorkflow,
  planJobs,
  resolveDispatchInputs,
  scheduleSpecs,
  type PlannedJobs,
  type ResolvedDispatchInputs,
} from './workflows/index.js';

/** What is asked of the files: which match an event (and their jobs), or their schedules, or their jobs alone. */
export type WorkflowQuestion =
  | { kind: 'push'; ref: string; changedFiles?: string[] }
  | { kind: 'pull_request'; action: string; baseBranch: string; changedFiles?: string[] }
  | { kind: 'dispatch'; inputs: Record<string, string> }
  | { kind: 'schedule'; afterMs: number }
  | { kind: 'plan' };

export interface WorkflowAnalysisRequest {
  files: { id: string; content: string }[];
  question: WorkflowQuestion;
}

/** One file's answer. `matched` files carry their jobs (`plan`), or why they cannot run (`error`). */
export interface AnalyzedWorkflow {
  id: string;
  /** The workflow's `name:`, '' when it has none or does not parse. */
  name: string;
  /** Why the file is not a workflow (it does not parse); such a file matches every event, to report it on a run. */
  error?: string;
  matched: boolean;
  plan?: PlannedJobs;
  /** `schedule`: each cron spec and when it is next due (epoch milliseconds). */
  schedules?: { spec: string; next: number }[];
  /** `dispatch`: the inputs as the workflow declares them, defaults filled in, or why they are refused. */
  inputs?: ResolvedDispatchInputs;
}

export default function analyzeWorkflows(request: WorkflowAnalysisRequest): AnalyzedWorkflow[] {
  return request.files.map((file) => analyze(file, request.question));
}

function analyze(file: { id: string; content: string }, question: WorkflowQuestion): AnalyzedWorkflow {
  const parsed = parseWorkflow(file.content);
  if (!parsed.ok) return { id: file.id, name: '', error: parsed.error, matched: question.kind !== 'schedule' };
  const { workflow } = parsed;
  const answer: AnalyzedWorkflow = { id: file.id, name: workflow.name, matched: false };
  switch (question.kind) {
    case 'push':
      answer.matched = matchesPush(workflow, { ref: question.ref, changedFiles: question.changedFiles });
      break;
    case 'pull_request':
      answer.matched = matchesPullRequest(workflow, { action: question.action, baseBranch: question.baseBranch, changedFiles: question.changedFiles }, 'pull_request');
      break;
    case 'dispatch':
      answer.matched = matchesDispatch(workflow);
      if (answer.matched) answer.inputs = resolveDispatchInputs(workflow, question.inputs);
      break;
    case 'schedule':
      answer.schedules = scheduleSpecs(workflow).flatMap((spec) => {
        const next = nextScheduleTime(spec, question.afterMs);
        return next === undefined ? [] : [{ spec, next }];
      });
      answer.matched = answer.schedules.length > 0;
      return answer;
    case 'plan':
      answer.matched = true;
      break;
  }
  if (answer.matched) answer.plan = planJobs(workflow);
  return answer;
}
