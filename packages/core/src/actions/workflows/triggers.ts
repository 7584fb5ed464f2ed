/**
 * Whether an event starts a workflow, as Forgejo's `detectMatched` decides (modules/actions/workflows.go): the
 * event's name must be among the workflow's `on:` events, and then every filter that event carries must pass. A
 * filter Forgejo does not know for that event never passes, so the workflow does not run. Also the
 * `workflow_dispatch` inputs and the `schedule` specs.
 */
import { Glob } from '../../glob.js';
import { compileFilterPatterns, FilterPatternError, ignoresAll, skipsAll, type FilterPattern } from './filter-pattern.js';
import type { Workflow, WorkflowEvent } from './workflow.js';

export interface PushEvent {
  /** The full ref name: `refs/heads/main`, `refs/tags/v1`. */
  ref: string;
  /** The files the push changed; undefined when unknown (then path filters pass). */
  changedFiles?: readonly string[];
  /** The push deleted the ref: never a match (Forgejo runs no workflow for it). */
  deleted?: boolean;
}

export interface PullRequestEvent {
  /**
   * The activity type as GitHub names it (`opened`, `synchronize`, `reopened`, `closed`, `edited`, `labeled`, …);
   * Forgejo's hook names are converted (`synchronized`, `label_updated`, `label_cleared`).
   */
  action: string;
  /** The base branch: `main` or `refs/heads/main`. */
  baseBranch: string;
  changedFiles?: readonly string[];
}

export type PullRequestEventName = 'pull_request' | 'pull_request_target';

const DEFAULT_PULL_REQUEST_TYPES = new Set(['opened', 'synchronize', 'reopened']);

function eventsNamed(workflow: Workflow, name: string): WorkflowEvent[] {
  return workflow.on.events.filter((event) => event.name === name);
}

/** Compiles a filter's patterns; undefined when one does not compile (Forgejo then counts the filter as failed). */
function patterns(values: readonly string[]): FilterPattern[] | undefined {
  try {
    return compileFilterPatterns(values);
  } catch (error) {
    if (error instanceof FilterPatternError) return undefined;
    throw error;
  }
}

/** `branches` / `tags` / `paths` (positive: something included) and their `-ignore` forms (not everything ignored). */
function passes(values: readonly string[], inputs: readonly string[], ignore: boolean): boolean {
  const compiled = patterns(values);
  if (compiled === undefined) return false;
  return ignore ? !ignoresAll(compiled, inputs) : !skipsAll(compiled, inputs);
}

/** GitHub refuses a filter given with its `-ignore` twin (`branches` and `branches-ignore`): the event never matches. */
function hasConflict(filters: ReadonlyMap<string, string[]>): boolean {
  return ['branches', 'tags', 'paths'].some((name) => filters.has(name) && filters.has(`${name}-ignore`));
}

/** gobwas's glob with `/` as separator, as Forgejo matches activity types; a pattern that does not compile fails. */
function typeMatches(patternsList: readonly string[], actions: readonly string[]): boolean {
  return patternsList.some((pattern) => {
    let glob: Glob;
    try {
      glob = Glob.compile(pattern, ['/']);
    } catch {
      return false;
    }
    return actions.some((action) => glob.match(action));
  });
}

const BRANCH_PREFIX = 'refs/heads/';
const TAG_PREFIX = 'refs/tags/';

/** Forgejo's `matchPushEvent` for one `push` event of the workflow. */
function pushEventMatches(event: WorkflowEvent, push: PushEvent): boolean {
  const filters = event.filters;
  if (filters.size === 0) return true;
  if (hasConflict(filters)) return false;
  const branch = push.ref.startsWith(BRANCH_PREFIX) ? push.ref.slice(BRANCH_PREFIX.length) : undefined;
  const tag = push.ref.startsWith(TAG_PREFIX) ? push.ref.slice(TAG_PREFIX.length) : undefined;
  let matched = 0;
  let branchFilter = false;
  let tagFilter = false;
  for (const [name, values] of filters) {
    switch (name) {
      case 'branches':
      case 'branches-ignore':
        branchFilter = true;
        if (branch !== undefined && passes(values, [branch], name === 'branches-ignore')) matched++;
        break;
      case 'tags':
      case 'tags-ignore':
        tagFilter = true;
        if (tag !== undefined && passes(values, [tag], name === 'tags-ignore')) matched++;
        break;
      case 'paths':
      case 'paths-ignore':
        // Path filters do not apply to tags, and without the list of changed files they cannot refuse.
        if (tag !== undefined || push.changedFiles === undefined || passes(values, push.changedFiles, name === 'paths-ignore')) matched++;
        break;
      default:
        break; // a filter push does not have: never passes
    }
  }
  // Branch filters and tag filters together: the push needs to pass only the ones of its kind.
  if (branchFilter && tagFilter) matched++;
  return matched === filters.size;
}

/** Whether a push starts the workflow (`on: push` with its branch, tag and path filters). */
export function matchesPush(workflow: Workflow, push: PushEvent): boolean {
  if (push.deleted) return false;
  return eventsNamed(workflow, 'push').some((event) => pushEventMatches(event, push));
}

/** Forgejo's hook action names, as GitHub's activity types. */
function pullRequestAction(action: string): string {
  if (action === 'synchronized') return 'synchronize';
  if (action === 'label_updated') return 'labeled';
  if (action === 'label_cleared') return 'unlabeled';
  return action;
}

/** Forgejo's `matchPullRequestEvent` for one `pull_request` / `pull_request_target` event. */
function pullRequestEventMatches(event: WorkflowEvent, pull: PullRequestEvent): boolean {
  const filters = event.filters;
  if (hasConflict(filters)) return false;
  const action = pullRequestAction(pull.action);
  const types = filters.get('types');
  const typeMatched = types === undefined ? DEFAULT_PULL_REQUEST_TYPES.has(action) : typeMatches(types, [action]);
  if (!typeMatched) return false;
  const base = pull.baseBranch.startsWith(BRANCH_PREFIX) ? pull.baseBranch.slice(BRANCH_PREFIX.length) : pull.baseBranch;
  let matched = 0;
  for (const [name, values] of filters) {
    switch (name) {
      case 'types':
        matched++;
        break;
      case 'branches':
      case 'branches-ignore':
        if (passes(values, [base], name === 'branches-ignore')) matched++;
        break;
      case 'paths':
      case 'paths-ignore':
        if (pull.changedFiles === undefined || passes(values, pull.changedFiles, name === 'paths-ignore')) matched++;
        break;
      default:
        break;
    }
  }
  return matched === filters.size;
}

/** Whether a pull request event starts the workflow (`types`, default opened/synchronize/reopened; base branch; paths). */
export function matchesPullRequest(workflow: Workflow, pull: PullRequestEvent, eventName: PullRequestEventName = 'pull_request'): boolean {
  return eventsNamed(workflow, eventName).some((event) => pullRequestEventMatches(event, pull));
}

/** Whether the workflow can be started by hand (`on: workflow_dispatch`). */
export function matchesDispatch(workflow: Workflow): boolean {
  return eventsNamed(workflow, 'workflow_dispatch').length > 0;
}

/** Details of an event for `matchesEvent`. */
export interface EventDetails {
  /** The activity type (`opened`, `created`, `published`, …), or Forgejo's hook action name. */
  action?: string;
  /** For `push`. */
  ref?: string;
  /** For `pull_request` / `pull_request_target`. */
  baseBranch?: string;
  changedFiles?: readonly string[];
  deleted?: boolean;
}

/** The activity types a Forgejo action stands for, per event (Forgejo's `match*Event` conversions). */
function activityTypes(eventName: string, action: string): string[] {
  switch (eventName) {
    case 'issues':
      return [action === 'label_updated' ? 'labeled' : action === 'label_cleared' ? 'unlabeled' : action];
    case 'pull_request_review':
      return action === 'reviewed' ? ['submitted', 'edited'] : [action];
    case 'pull_request_review_comment':
      return action === 'reviewed' ? ['created', 'edited'] : [action];
    case 'release':
      return [action === 'updated' ? 'edited' : action];
    case 'registry_package':
      return [action === 'created' ? 'published' : action];
    default:
      return [action];
  }
}

/** Events whose only filter is `types`; every other filter fails them. */
const TYPED_EVENTS = new Set(['issues', 'issue_comment', 'pull_request_review', 'pull_request_review_comment', 'release', 'registry_package']);

/**
 * Whether an event by name starts the workflow: `push` and `pull_request*` through their own rules (with `ref`,
 * `baseBranch`, `changedFiles` from `details`), the events with activity types (`issues`, `issue_comment`,
 * `pull_request_review`, `pull_request_review_comment`, `release`, `registry_package`) against `details.action`,
 * `schedule` when the workflow has a schedule entry, and any other (`create`, `delete`, `fork`, `gollum`,
 * `workflow_dispatch`, …) by name alone, its filters ignored as Forgejo ignores them.
 */
export function matchesEvent(workflow: Workflow, eventName: string, details: EventDetails = {}): boolean {
  if (eventName === 'push') {
    return matchesPush(workflow, { ref: details.ref ?? '', changedFiles: details.changedFiles, deleted: details.deleted });
  }
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    return matchesPullRequest(workflow, { action: details.action ?? '', baseBranch: details.baseBranch ?? '', changedFiles: details.changedFiles }, eventName);
  }
  const events = eventsNamed(workflow, eventName);
  if (eventName === 'schedule') return events.some((event) => (event.schedules?.length ?? 0) > 0);
  if (!TYPED_EVENTS.has(eventName)) return events.length > 0;
  return events.some((event) => {
    if (event.filters.size === 0) return true;
    const types = event.filters.get('types');
    // Any filter but `types` fails (Forgejo counts it as unmatched).
    if (types === undefined || event.filters.size > 1) return false;
    return typeMatches(types, activityTypes(eventName, details.action ?? ''));
  });
}

/** A `workflow_dispatch` input. */
export interface DispatchInput {
  name: string;
  /** `string` unless written otherwise: `boolean`, `choice`, `number`, `environment`. */
  type: string;
  required: boolean;
  /** The default as text (a boolean default is `true` / `false`). */
  default?: string;
  options: string[];
  description: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

/** The inputs of `on.workflow_dispatch.inputs`, in file order. */
export function dispatchInputs(workflow: Workflow): DispatchInput[] {
  const event = eventsNamed(workflow, 'workflow_dispatch')[0];
  const inputs = event?.config?.inputs;
  if (!inputs || typeof inputs !== 'object' || Array.isArray(inputs)) return [];
  return Object.entries(inputs as Record<string, unknown>).map(([name, spec]) => {
    const s = spec && typeof spec === 'object' && !Array.isArray(spec) ? (spec as Record<string, unknown>) : {};
    const fallback = text(s.default);
    return {
      name,
      type: text(s.type) ?? 'string',
      required: s.required === true || s.required === 'true',
      ...(fallback !== undefined ? { default: fallback } : {}),
      options: Array.isArray(s.options) ? s.options.map(text).filter((o): o is string => o !== undefined) : [],
      description: text(s.description) ?? '',
    };
  });
}

export type ResolvedDispatchInputs = { ok: true; inputs: Record<string, string> } | { ok: false; error: string };

/**
 * The inputs of a dispatch: each declared input from `given`, else its default; refuses a required input with no
 * value, a `choice` outside its options, a `boolean` other than true/false and a `number` that is not one. Values
 * for names the workflow does not declare are left out.
 */
export function resolveDispatchInputs(workflow: Workflow, given: Record<string, string>): ResolvedDispatchInputs {
  const inputs: Record<string, string> = {};
  for (const input of dispatchInputs(workflow)) {
    const value = Object.hasOwn(given, input.name) ? given[input.name]! : input.default;
    if (value === undefined || value === '') {
      if (input.required) return { ok: false, error: `input "${input.name}" is required` };
      if (value === undefined) continue;
    } else if (input.type === 'choice' && !input.options.includes(value)) {
      return { ok: false, error: `input "${input.name}": "${value}" is not one of its options (${input.options.join(', ')})` };
    } else if (input.type === 'boolean' && value !== 'true' && value !== 'false') {
      return { ok: false, error: `input "${input.name}": "${value}" is not a boolean (true or false)` };
    } else if (input.type === 'number' && !Number.isFinite(Number(value))) {
      return { ok: false, error: `input "${input.name}": "${value}" is not a number` };
    }
    Object.defineProperty(inputs, input.name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, inputs };
}

/** The cron specs of `on.schedule` (`[{ cron: '…' }]`), in file order. */
export function scheduleSpecs(workflow: Workflow): string[] {
  return eventsNamed(workflow, 'schedule').flatMap((event) =>
    (event.schedules ?? []).flatMap((entry) => (Object.hasOwn(entry, 'cron') ? [entry.cron!] : [])),
  );
}
