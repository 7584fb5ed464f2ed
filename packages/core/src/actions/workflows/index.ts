/**
 * The workflow model of RepoHost Actions: reading a workflow file, deciding which events start it, and splitting it
 * into the jobs of a run. Pure functions, no database, git or I/O.
 */
export {
  parseWorkflow,
  MAX_WORKFLOW_BYTES,
  MAX_WORKFLOW_JOBS,
  MAX_MATRIX_COMBINATIONS,
  MAX_JOB_STEPS,
  type ParsedWorkflow,
  type Workflow,
  type WorkflowEvent,
  type WorkflowTriggers,
  type WorkflowJob,
  type WorkflowMatrix,
  type MatrixCombination,
} from './workflow.js';
export {
  matchesPush,
  matchesPullRequest,
  matchesDispatch,
  matchesEvent,
  dispatchInputs,
  resolveDispatchInputs,
  scheduleSpecs,
  type PushEvent,
  type PullRequestEvent,
  type PullRequestEventName,
  type EventDetails,
  type DispatchInput,
  type ResolvedDispatchInputs,
} from './triggers.js';
export { nextScheduleTime, isValidScheduleSpec } from './cron.js';
export { planJobs, interpolateMatrix, MAX_PLANNED_JOBS, type JobPlan, type PlannedJobs } from './plan.js';
export { FilterPattern, FilterPatternError, compileFilterPatterns, skipsAll, ignoresAll } from './filter-pattern.js';
