/**
 * A workflow file read as Forgejo reads it (act's `model.ReadWorkflow`, `jobparser.ParseRawOn`, the matrix
 * expansion of `GetMatrixes`): its name, its triggers (the `on:` key as a string, a list or a map), its env and its
 * jobs in file order, each with its needs, runner labels, condition, outputs and matrix combinations. Pure: the text
 * in, a model or an error string out, with every size bounded so no file can make the caller slow.
 */
import { parseDocument, type Document } from 'yaml';

/** Bounds a workflow file must keep (beyond them the file is refused with an error). */
export const MAX_WORKFLOW_BYTES = 256 * 1024;
export const MAX_WORKFLOW_JOBS = 256;
/** GitHub's limit on the jobs one matrix may generate. */
export const MAX_MATRIX_COMBINATIONS = 256;
export const MAX_JOB_STEPS = 100;
/** Combinations enumerated before `exclude` applies: past this the matrix is refused without being expanded. */
const MAX_MATRIX_PRODUCT = 4096;
/**
 * The yaml package's alias budget (aliases resolved × aliases within the anchored node): a file that expands
 * anchors into far more data than it holds (billion laughs) is refused here.
 */
const MAX_ALIAS_COUNT = 1000;

/** One event of `on:`, as act's `jobparser.Event`. */
export interface WorkflowEvent {
  name: string;
  /** Its filters (`branches`, `tags`, `paths`, `types`, …) in file order, each a list; empty when it has none. */
  filters: ReadonlyMap<string, string[]>;
  /** For `schedule`: its entries (`{ cron: '…' }`). */
  schedules?: Record<string, string>[];
  /** For `workflow_dispatch` and `workflow_call`: the event's map as written (its `inputs`, `outputs`). */
  config?: Record<string, unknown>;
}

/** The `on:` key: written as one event name, a list of names, or a map of events to their filters. */
export interface WorkflowTriggers {
  form: 'string' | 'list' | 'map';
  events: WorkflowEvent[];
}

/** A combination of matrix values (`{ os: 'linux', node: 20 }`). */
export type MatrixCombination = Record<string, unknown>;

/** `strategy.matrix` as written. */
export interface WorkflowMatrix {
  /** The dimensions in file order; a value that is not a list (an expression string) is one value. */
  dimensions: { key: string; values: unknown[] }[];
  include: MatrixCombination[];
  exclude: MatrixCombination[];
  /** The whole matrix written as one expression (`${{ fromJSON(…) }}`): left for the runner, one combination here. */
  expression?: string;
}

export interface WorkflowJob {
  id: string;
  /** `name:` as written ('' when absent). */
  name: string;
  /** Job ids this job waits for. */
  needs: string[];
  /** Runner labels: `runs-on` as a string, a list, or `{ labels, group }` (the group last, as act reads it). */
  runsOn: string[];
  if?: string;
  outputs: Record<string, string>;
  env: Record<string, string>;
  matrix?: WorkflowMatrix;
  /** The matrix expanded as act expands it (include and exclude applied); one empty combination without a matrix. */
  combinations: MatrixCombination[];
  /** The job as written (anchors and merge keys resolved). */
  raw: Record<string, unknown>;
}

export interface Workflow {
  name: string;
  on: WorkflowTriggers;
  env: Record<string, string>;
  jobs: WorkflowJob[];
  /** The file as written (anchors and merge keys resolved). */
  raw: Record<string, unknown>;
}

export type ParsedWorkflow = { ok: true; workflow: Workflow } | { ok: false; error: string };

/** The parsed document of each workflow, so a job's payload keeps its scalars exactly as written. */
const documents = new WeakMap<Workflow, Document>();

/** The document a workflow was parsed from (undefined for one built by hand). */
export function workflowDocument(workflow: Workflow): Document | undefined {
  return documents.get(workflow);
}

class WorkflowError extends Error {}

/** Parses a workflow file. Never throws: what Forgejo would refuse comes back as an error string. */
export function parseWorkflow(content: string): ParsedWorkflow {
  try {
    const size = Buffer.byteLength(content, 'utf8');
    if (size > MAX_WORKFLOW_BYTES) {
      throw new WorkflowError(`workflow file is too large: ${size} bytes (at most ${MAX_WORKFLOW_BYTES})`);
    }
    // Merge keys as Go's yaml.v3 reads them; YAML 1.2, so `on` stays a string (a `%YAML 1.1` file makes it `true`).
    const doc = parseDocument(content, { merge: true, uniqueKeys: true, prettyErrors: true });
    const problem = doc.errors[0];
    if (problem) throw new WorkflowError(yamlError(problem.message, problem.linePos?.[0]?.line));
    let root: unknown;
    try {
      root = doc.toJS({ mapAsMap: true, maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      if (error instanceof ReferenceError) throw new WorkflowError(`yaml: ${error.message}`);
      throw error;
    }
    const workflow = readWorkflow(root);
    documents.set(workflow, doc);
    return { ok: true, workflow };
  } catch (error) {
    if (error instanceof WorkflowError) return { ok: false, error: error.message };
    // Anything else is a bug here, but a workflow file must not be able to take the caller down with it.
    return { ok: false, error: `invalid workflow: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** `yaml: line 3: …`, the form of Go's yaml errors, from the yaml package's message. */
function yamlError(message: string, line: number | undefined): string {
  const first = message.split('\n')[0] ?? message;
  const at = first.lastIndexOf(' at line ');
  const text = at > 0 ? first.slice(0, at) : first;
  return line === undefined ? `yaml: ${text}` : `yaml: line ${line}: ${text}`;
}

const isMap = (value: unknown): value is Map<unknown, unknown> => value instanceof Map;

/** A map value read with string keys, as Go decodes a mapping into `map[string]…`. */
function entries(value: Map<unknown, unknown>): [string, unknown][] {
  return [...value].map(([key, item]) => [String(key), item]);
}

function get(value: Map<unknown, unknown>, key: string): unknown {
  for (const [k, item] of value) if (String(k) === key) return item;
  return undefined;
}

/** A scalar as text: strings as they are, numbers and booleans as YAML prints them; undefined for anything else. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/** Maps become plain objects (own properties only, so a key like `__proto__` is just a key). */
function plain(value: unknown): unknown {
  if (isMap(value)) return Object.fromEntries(entries(value).map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isMap(value)) throw new WorkflowError(`${what}: expected a mapping`);
  const result: Record<string, string> = {};
  for (const [key, item] of entries(value)) {
    const text = item === null ? '' : scalarText(item);
    if (text === undefined) throw new WorkflowError(`${what}.${key}: expected a string`);
    Object.defineProperty(result, key, { value: text, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

function stringList(value: unknown, what: string): string[] {
  if (value === undefined || value === null) return [];
  const single = scalarText(value);
  if (single !== undefined) return [single];
  if (!Array.isArray(value)) throw new WorkflowError(`${what}: expected a string or a list of strings`);
  return value.map((item) => {
    const text = scalarText(item);
    if (text === undefined) throw new WorkflowError(`${what}: expected a string or a list of strings`);
    return text;
  });
}

function readWorkflow(root: unknown): Workflow {
  if (!isMap(root)) throw new WorkflowError('yaml: the workflow is not a mapping');
  let onValue: unknown = undefined;
  let hasOn = false;
  for (const [key, value] of root) {
    if (key === 'on') {
      onValue = value;
      hasOn = true;
    }
  }
  // YAML 1.1 reads the key `on` as the boolean true.
  if (!hasOn && root.has(true)) {
    onValue = root.get(true);
    hasOn = true;
  }
  if (!hasOn) throw new WorkflowError('the workflow has no "on" key: no event triggers it');
  const on = readTriggers(onValue);
  const jobsValue = get(root, 'jobs');
  if (!isMap(jobsValue) || jobsValue.size === 0) throw new WorkflowError('the workflow has no jobs: "jobs" must be a non-empty mapping');
  if (jobsValue.size > MAX_WORKFLOW_JOBS) {
    throw new WorkflowError(`the workflow has ${jobsValue.size} jobs (at most ${MAX_WORKFLOW_JOBS})`);
  }
  const jobs = entries(jobsValue).map(([id, job]) => readJob(id, job));
  const raw = plain(root) as Record<string, unknown>;
  return {
    name: scalarText(get(root, 'name')) ?? '',
    on,
    env: stringMap(get(root, 'env'), 'env'),
    jobs,
    raw,
  };
}

/** act's `ParseRawOn`: the three forms of `on`, and what each event may carry. */
function readTriggers(value: unknown): WorkflowTriggers {
  const none = new Map<string, string[]>();
  const name = scalarText(value);
  if (name !== undefined) return { form: 'string', events: [{ name, filters: none }] };
  if (Array.isArray(value)) {
    return {
      form: 'list',
      events: value.map((item) => {
        if (typeof item !== 'string') throw new WorkflowError(`on: invalid type ${describe(item)} in the list of events`);
        return { name: item, filters: none };
      }),
    };
  }
  if (!isMap(value)) throw new WorkflowError(`on: unknown on type: ${describe(value)}`);
  const events: WorkflowEvent[] = [];
  for (const [event, body] of entries(value)) {
    if (body === null || body === undefined || typeof body === 'string') {
      events.push({ name: event, filters: none });
    } else if (Array.isArray(body)) {
      if (event !== 'schedule') throw new WorkflowError(`on.${event}: unknown on type: a list`);
      const schedules = body.map((entry) => {
        if (!isMap(entry)) throw new WorkflowError('on.schedule: each entry must be a mapping such as { cron: "0 4 * * *" }');
        return stringMap(entry, 'on.schedule');
      });
      events.push({ name: event, filters: none, schedules });
    } else if (isMap(body)) {
      const filters = new Map<string, string[]>();
      for (const [key, item] of entries(body)) {
        if (isMap(item)) {
          // Only these events have nested maps (their inputs and outputs).
          const nested = (event === 'workflow_dispatch' && key === 'inputs') || (event === 'workflow_call' && (key === 'inputs' || key === 'outputs'));
          if (!nested) throw new WorkflowError(`on.${event}.${key}: unknown on type: a mapping`);
          continue;
        }
        if (item === null || item === undefined) throw new WorkflowError(`on.${event}.${key}: unknown on type: an empty value`);
        filters.set(key, stringList(item, `on.${event}.${key}`));
      }
      const configured = event === 'workflow_dispatch' || event === 'workflow_call';
      events.push({
        name: event,
        filters: configured ? none : filters,
        ...(configured ? { config: plain(body) as Record<string, unknown> } : {}),
      });
    } else throw new WorkflowError(`on.${event}: unknown on type: ${describe(body)}`);
  }
  return { form: 'map', events };
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (isMap(value)) return 'a mapping';
  return typeof value;
}

function readJob(id: string, value: unknown): WorkflowJob {
  const what = `jobs.${id}`;
  if (!isMap(value)) throw new WorkflowError(`${what}: a job must be a mapping`);
  const steps = get(value, 'steps');
  if (steps !== undefined && steps !== null && !Array.isArray(steps)) throw new WorkflowError(`${what}.steps: expected a list`);
  if (Array.isArray(steps) && steps.length > MAX_JOB_STEPS) {
    throw new WorkflowError(`${what}: ${steps.length} steps (at most ${MAX_JOB_STEPS})`);
  }
  const ifValue = get(value, 'if');
  const ifText = ifValue === undefined || ifValue === null ? undefined : scalarText(ifValue);
  if (ifValue !== undefined && ifValue !== null && ifText === undefined) throw new WorkflowError(`${what}.if: expected a string`);
  const strategy = get(value, 'strategy');
  const matrixValue = isMap(strategy) ? get(strategy, 'matrix') : undefined;
  const matrix = matrixValue === undefined || matrixValue === null ? undefined : readMatrix(matrixValue, `${what}.strategy.matrix`);
  const env = get(value, 'env');
  return {
    id,
    name: scalarText(get(value, 'name')) ?? '',
    needs: stringList(get(value, 'needs'), `${what}.needs`),
    runsOn: readRunsOn(get(value, 'runs-on'), `${what}.runs-on`),
    ...(ifText !== undefined ? { if: ifText } : {}),
    outputs: stringMap(get(value, 'outputs'), `${what}.outputs`),
    // An env written as one expression is the runner's to evaluate.
    env: typeof env === 'string' ? {} : stringMap(env, `${what}.env`),
    ...(matrix ? { matrix } : {}),
    combinations: matrix ? expandMatrix(matrix, what) : [{}],
    raw: plain(value) as Record<string, unknown>,
  };
}

/** act's `Job.RunsOn`: a label, a list of labels, or `{ group, labels }` with the group after the labels. */
function readRunsOn(value: unknown, what: string): string[] {
  if (isMap(value)) {
    const labels = stringList(get(value, 'labels'), `${what}.labels`);
    const group = scalarText(get(value, 'group'));
    return group ? [...labels, group] : labels;
  }
  return stringList(value, what);
}

function readMatrix(value: unknown, what: string): WorkflowMatrix {
  if (typeof value === 'string') return { dimensions: [], include: [], exclude: [], expression: value };
  if (!isMap(value)) throw new WorkflowError(`${what}: expected a mapping or an expression`);
  const matrix: WorkflowMatrix = { dimensions: [], include: [], exclude: [] };
  const combination = (item: unknown, key: string): MatrixCombination => {
    if (!isMap(item)) throw new WorkflowError(`${what}.${key}: each entry must be a mapping`);
    return plain(item) as MatrixCombination;
  };
  for (const [key, item] of entries(value)) {
    if (key === 'include' || key === 'exclude') {
      if (typeof item === 'string') throw new WorkflowError(`${what}.${key}: an expression here is not supported`);
      // act takes one mapping, a list of them, and lists nested one level.
      const list = Array.isArray(item) ? item.flatMap((entry) => (Array.isArray(entry) ? entry : [entry])) : item == null ? [] : [item];
      matrix[key].push(...list.map((entry) => combination(entry, key)));
    } else {
      const values = Array.isArray(item) ? item.map(plain) : [plain(item)];
      matrix.dimensions.push({ key, values });
    }
  }
  return matrix;
}

/** Go's `reflect.DeepEqual` over decoded YAML values. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as never)[k], (b as never)[k]));
  }
  return false;
}

function assign(target: MatrixCombination, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * act's `GetMatrixes`: the cartesian product of the dimensions (the last varying fastest), without the combinations
 * an `exclude` entry matches on every key they share; then each `include` entry is added to every combination it
 * agrees with on the original dimensions, or, agreeing with none, becomes a combination of its own.
 */
function expandMatrix(matrix: WorkflowMatrix, what: string): MatrixCombination[] {
  if (matrix.expression !== undefined) return [{}];
  let product = matrix.dimensions.length === 0 ? 0 : 1;
  for (const { values } of matrix.dimensions) product *= values.length;
  if (product > MAX_MATRIX_PRODUCT) {
    throw new WorkflowError(`${what}: the matrix has ${product} combinations (at most ${MAX_MATRIX_COMBINATIONS})`);
  }
  const combinations: MatrixCombination[] = [];
  const counters = matrix.dimensions.map(() => 0);
  for (let n = 0; n < product; n++) {
    const combination: MatrixCombination = {};
    matrix.dimensions.forEach(({ key, values }, i) => assign(combination, key, values[counters[i]!]));
    const excluded = matrix.exclude.some((exclude) =>
      Object.keys(combination).every((key) => !Object.hasOwn(exclude, key) || deepEqual(combination[key], exclude[key])),
    );
    if (!excluded) combinations.push(combination);
    // Odometer: the last dimension turns fastest.
    for (let i = counters.length - 1; i >= 0; i--) {
      counters[i]!++;
      if (counters[i]! < matrix.dimensions[i]!.values.length) break;
      counters[i] = 0;
    }
  }
  const dimensionKeys = new Set(matrix.dimensions.map((d) => d.key));
  const extra: MatrixCombination[] = [];
  for (const include of matrix.include) {
    let matched = false;
    for (const combination of combinations) {
      const agrees = Object.keys(combination).every(
        (key) => !dimensionKeys.has(key) || !Object.hasOwn(include, key) || deepEqual(combination[key], include[key]),
      );
      if (agrees) {
        matched = true;
        for (const key of Object.keys(include)) assign(combination, key, include[key]);
      }
    }
    if (!matched) {
      const combination: MatrixCombination = {};
      for (const key of Object.keys(include)) assign(combination, key, include[key]);
      extra.push(combination);
    }
  }
  combinations.push(...extra);
  if (combinations.length > MAX_MATRIX_COMBINATIONS) {
    throw new WorkflowError(`${what}: the matrix has ${combinations.length} combinations (at most ${MAX_MATRIX_COMBINATIONS})`);
  }
  return combinations.length > 0 ? combinations : [{}];
}
