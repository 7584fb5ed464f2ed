/**
 * The jobs of a run, as act's `jobparser.Parse` splits a workflow: one job per matrix combination, named after the
 * job (or its id with the combination's values, "build (1, linux)"), with `runs-on` labels resolved from the
 * combination, and a payload: the single-job workflow (`SingleWorkflow`) the runner receives, with the job as written
 * except its matrix, reduced to the one combination.
 */
import { Alias, Document, isAlias, isMap, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, type Node as YamlNode } from 'yaml';
import { workflowDocument, type MatrixCombination, type Workflow, type WorkflowJob } from './workflow.js';

/** One job of a run. */
export interface JobPlan {
  jobId: string;
  /** The job's name with `matrix.X` resolved, or its id with the combination's values appended. */
  name: string;
  needs: string[];
  runsOn: string[];
  if?: string;
  /** The combination this job runs with (empty without a matrix). */
  matrix: MatrixCombination;
  /** The single-job workflow as YAML. */
  payload: string;
}

export type PlannedJobs = { ok: true; jobs: JobPlan[] } | { ok: false; error: string };

/** Jobs one run may have in all: 256 jobs of 256 combinations each would be 65,536 payloads to write at once. */
export const MAX_PLANNED_JOBS = 1024;
/** Nodes copied into payloads in all (anchors expanded): bounds the work whatever the aliases say. */
const MAX_COPIED_NODES = 2_000_000;

class PlanError extends Error {}

/** Go's `fmt.Sprint` of a decoded YAML value, which act uses for the values in a job's name. */
export function goSprint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'number') return goFloat(value);
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((k) => `${k}:${goSprint((value as Record<string, unknown>)[k])}`).join(' ')}]`;
  }
  return String(value);
}

/** `%v` of a number: integers plainly, other floats in Go's shortest `%g` (exponent below 1e-4 or from 1e21). */
function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  const magnitude = Math.abs(n);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e21)) {
    const [mantissa, exponent] = n.toExponential().split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    const digits = exponent.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

/** act's `nameWithMatrix`: the values ordered by their keys, "id (v1, v2)". */
function nameWithMatrix(id: string, combination: MatrixCombination): string {
  const keys = Object.keys(combination).sort();
  if (keys.length === 0) return id;
  return `${id} (${keys.map((k) => goSprint(combination[k])).join(', ')})`;
}

const isNameChar = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '-';

/**
 * Resolves each `${{ matrix.X }}` in `text` from the combination (a key it lacks is empty, as the expression would
 * be); any other expression is left as written.
 */
export function interpolateMatrix(text: string, combination: MatrixCombination): string {
  let out = '';
  let pos = 0;
  for (;;) {
    const open = text.indexOf('${{', pos);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 3);
    if (close < 0) break;
    const inner = text.slice(open + 3, close).trim();
    const key = inner.startsWith('matrix.') ? inner.slice('matrix.'.length) : '';
    out += text.slice(pos, open);
    if (key !== '' && [...key].every(isNameChar)) {
      const value = Object.hasOwn(combination, key) ? combination[key] : undefined;
      out += value === undefined || value === null ? '' : goSprint(value);
    } else out += text.slice(open, close + 2);
    pos = close + 2;
  }
  return out + text.slice(pos);
}

/** Refuses a `needs` naming no job of the workflow, and a cycle of needs (GitHub's messages). */
function checkNeeds(jobs: readonly WorkflowJob[]): string | undefined {
  const byId = new Map(jobs.map((job) => [job.id, job]));
  for (const job of jobs) {
    for (const need of job.needs) {
      if (!byId.has(need)) return `Job '${job.id}' depends on unknown job '${need}'.`;
    }
  }
  // Depth-first, iterative: 0 unvisited, 1 on the current path, 2 done.
  const state = new Map<string, number>();
  for (const start of jobs) {
    if (state.get(start.id) === 2) continue;
    const stack: { id: string; next: number }[] = [{ id: start.id, next: 0 }];
    state.set(start.id, 1);
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const needs = byId.get(top.id)!.needs;
      if (top.next >= needs.length) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const need = needs[top.next++]!;
      const seen = state.get(need) ?? 0;
      if (seen === 1) return `Job '${top.id}' depends on job '${need}' which creates a cycle in the dependency graph.`;
      if (seen === 0) {
        state.set(need, 1);
        stack.push({ id: need, next: 0 });
      }
    }
  }
  return undefined;
}

/** Copies a node with its aliases replaced by copies of what they name, so it stands alone in another document. */
function standalone(node: unknown, doc: Document, budget: { left: number }): YamlNode {
  if (--budget.left < 0) throw new PlanError('the workflow expands into too much data');
  if (isAlias(node)) {
    const target = (node as Alias).resolve(doc);
    if (target === undefined) throw new PlanError(`unresolved alias *${(node as Alias).source}`);
    return standalone(target, doc, budget);
  }
  if (isScalar(node)) {
    const copy = node.clone() as Scalar;
    copy.anchor = undefined;
    return copy;
  }
  if (isMap(node)) {
    const copy = new YAMLMap();
    copy.flow = node.flow;
    copy.commentBefore = node.commentBefore;
    copy.comment = node.comment;
    // Merge keys are written out as the keys they bring, so the payload means the same to any reader: a key of the
    // map itself wins over a merged one, and an earlier merged map over a later one (YAML's merge rules).
    const own = new Set(node.items.filter((pair) => !isMergeKey(pair.key)).map((pair) => keyText(pair.key)));
    const merged = new Set<string>();
    for (const pair of node.items) {
      if (!isMergeKey(pair.key)) {
        copy.items.push(new Pair(standalone(pair.key, doc, budget), pair.value == null ? null : standalone(pair.value, doc, budget)));
        continue;
      }
      const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
      for (const source of sources) {
        const map = standalone(source, doc, budget);
        if (!isMap(map)) continue;
        for (const item of map.items) {
          const key = keyText(item.key);
          if (own.has(key) || merged.has(key)) continue;
          merged.add(key);
          copy.items.push(item as Pair);
        }
      }
    }
    return copy;
  }
  if (isSeq(node)) {
    const copy = new YAMLSeq();
    copy.flow = node.flow;
    copy.commentBefore = node.commentBefore;
    copy.comment = node.comment;
    for (const item of node.items) copy.items.push(item == null ? null : standalone(item, doc, budget));
    return copy;
  }
  // A plain value (a key written without a node): as a scalar.
  return new Scalar(node);
}

const keyText = (key: unknown): string => String(isScalar(key) ? key.value : key);

/** `<<`, which the yaml package (with merge keys on) reads as a symbol. */
const isMergeKey = (key: unknown): boolean =>
  isScalar(key) && (typeof key.value === 'symbol' || (key.value === '<<' && key.type === 'PLAIN'));

function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => keyText(pair.key) === key) as Pair | undefined;
}

/** The workflow's root mapping (a hand-built workflow gets one made from its `raw`). */
function rootMap(workflow: Workflow): { doc: Document; root: YAMLMap } {
  const doc = workflowDocument(workflow) ?? new Document(workflow.raw);
  if (!isMap(doc.contents)) throw new PlanError('the workflow is not a mapping');
  return { doc, root: doc.contents };
}

/** Keys of a job the payload writes itself; every other key of the job is copied as written. */
const RESOLVED_KEYS = new Set(['name', 'runs-on', 'strategy']);

/**
 * What a job's payloads share, written once: the text around the job's keys (the workflow's `name`, `on`, `env`,
 * then `jobs:` and the job's id; after it `defaults` and `concurrency`), the job's other keys, and its strategy
 * without the matrix. A payload is then one small mapping (`name`, `runs-on`, `strategy`) placed among them, so a
 * job of 256 combinations writes its steps once, not 256 times.
 */
interface JobTemplate {
  before: string;
  after: string;
  /** The indentation of the job's keys. */
  indent: string;
  /** The job's other keys, as a block mapping at no indentation ('' when there are none). */
  rest: string;
  /** The strategy's keys other than `matrix`, copied; undefined when the job has no strategy mapping. */
  strategy: YAMLMap | undefined;
  hasRunsOn: boolean;
}

/** A line that cannot occur in YAML the yaml package writes for the workflow (it is checked for anyway). */
const MARKER = 'x-repohost-job-keys-f2b1c9e4';

function render(contents: YamlNode): string {
  const doc = new Document();
  doc.contents = contents;
  // No folding: long `run:` lines stay on one line.
  return doc.toString({ lineWidth: 0 });
}

/** Indents every line but the empty ones (so block scalars keep their empty lines exactly). */
function indentLines(text: string, indent: string): string {
  if (text === '' || indent === '') return text;
  let out = '';
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const line = end < 0 ? text.slice(start) : text.slice(start, end + 1);
    out += line === '\n' ? line : indent + line;
    start = end < 0 ? text.length : end + 1;
  }
  return out;
}

function jobTemplate(doc: Document, root: YAMLMap, job: WorkflowJob, budget: { left: number }): JobTemplate {
  const top = new YAMLMap();
  const copy = (key: string): YamlNode | undefined => {
    const pair = findPair(root, key) ?? (key === 'on' ? root.items.find((p) => isScalar(p.key) && p.key.value === true) : undefined);
    return pair && pair.value != null ? standalone(pair.value, doc, budget) : undefined;
  };
  for (const key of ['name', 'on', 'env']) {
    const value = copy(key);
    if (value) top.items.push(new Pair(new Scalar(key), value));
  }
  const jobsPair = findPair(root, 'jobs');
  const jobs = jobsPair && isMap(jobsPair.value) ? jobsPair.value : undefined;
  const jobPair = jobs ? findPair(jobs, job.id) : undefined;
  const source = jobPair?.value != null ? standalone(jobPair.value, doc, budget) : new Document().createNode(job.raw);
  if (!isMap(source)) throw new PlanError(`jobs.${job.id}: a job must be a mapping`);
  const node = source as YAMLMap;
  const marker = new YAMLMap();
  marker.items.push(new Pair(new Scalar(MARKER), new Scalar(0)));
  const jobsMap = new YAMLMap();
  jobsMap.items.push(new Pair(new Scalar(job.id), marker));
  top.items.push(new Pair(new Scalar('jobs'), jobsMap));
  for (const key of ['defaults', 'concurrency']) {
    const value = copy(key);
    if (value) top.items.push(new Pair(new Scalar(key), value));
  }
  const skeleton = render(top);
  const at = skeleton.indexOf(MARKER);
  if (at < 0 || skeleton.indexOf(MARKER, at + 1) >= 0) throw new PlanError('the workflow cannot be written out');
  const lineStart = skeleton.lastIndexOf('\n', at) + 1;
  const lineEnd = skeleton.indexOf('\n', at);
  const indent = skeleton.slice(lineStart, at);
  if (indent.trim() !== '') throw new PlanError('the workflow cannot be written out');

  const rest = new YAMLMap();
  rest.commentBefore = node.commentBefore;
  for (const pair of node.items) if (!RESOLVED_KEYS.has(keyText(pair.key))) rest.items.push(pair);
  const strategyValue = findPair(node, 'strategy')?.value;
  let strategy: YAMLMap | undefined;
  if (isMap(strategyValue)) {
    strategy = new YAMLMap();
    strategy.items = strategyValue.items.filter((pair) => keyText(pair.key) !== 'matrix');
  } else if (strategyValue != null) {
    // A strategy written as one expression stays as written.
    rest.items.push(new Pair(new Scalar('strategy'), strategyValue));
  }
  return {
    before: skeleton.slice(0, lineStart),
    after: lineEnd < 0 ? '' : skeleton.slice(lineEnd + 1),
    indent,
    rest: rest.items.length > 0 ? render(rest) : '',
    strategy,
    hasRunsOn: findPair(node, 'runs-on') !== undefined,
  };
}

/**
 * The single-job workflow of one combination, as act's `SingleWorkflow` marshals it: `name`, `on`, `env`, `jobs`
 * with the one job, `defaults`, `concurrency`. The job's `name` and `runs-on` are the resolved ones, its
 * `strategy.matrix` holds the combination (each value a one-element list, as act encodes it; no matrix key when
 * the combination is empty), and every other key is as written.
 */
function payloadFor(template: JobTemplate, job: WorkflowJob, name: string, runsOn: string[], combination: MatrixCombination): string {
  const factory = new Document();
  const head = new YAMLMap();
  head.items.push(new Pair(new Scalar('name'), new Scalar(name)));
  if (template.hasRunsOn || runsOn.length > 0) {
    head.items.push(new Pair(new Scalar('runs-on'), runsOn.length === 1 ? new Scalar(runsOn[0]) : (factory.createNode(runsOn) as YamlNode)));
  }
  if (template.strategy) {
    const strategy = new YAMLMap();
    strategy.items = [...template.strategy.items];
    const keys = Object.keys(combination);
    if (keys.length > 0 || job.matrix?.expression !== undefined) {
      const matrix = job.matrix?.expression !== undefined ? new Scalar(job.matrix.expression) : new YAMLMap();
      if (isMap(matrix)) {
        for (const key of keys) matrix.items.push(new Pair(new Scalar(key), factory.createNode([combination[key]]) as YamlNode));
      }
      strategy.items.push(new Pair(new Scalar('matrix'), matrix));
    }
    if (strategy.items.length > 0) head.items.push(new Pair(new Scalar('strategy'), strategy));
  }
  return template.before + indentLines(render(head), template.indent) + indentLines(template.rest, template.indent) + template.after;
}

/**
 * The jobs of a run of the workflow: for each job in file order, one plan per matrix combination. Refuses a
 * `needs` naming a job that does not exist, a cycle of needs, and more than MAX_PLANNED_JOBS jobs in all.
 */
export function planJobs(workflow: Workflow): PlannedJobs {
  try {
    const problem = checkNeeds(workflow.jobs);
    if (problem) return { ok: false, error: problem };
    const total = workflow.jobs.reduce((sum, job) => sum + job.combinations.length, 0);
    if (total > MAX_PLANNED_JOBS) return { ok: false, error: `the workflow has ${total} jobs with its matrices (at most ${MAX_PLANNED_JOBS})` };
    const { doc, root } = rootMap(workflow);
    const budget = { left: MAX_COPIED_NODES };
    const plans: JobPlan[] = [];
    for (const job of workflow.jobs) {
      const template = jobTemplate(doc, root, job, budget);
      for (const combination of job.combinations) {
        const name = job.name === '' ? nameWithMatrix(job.id, combination) : interpolateMatrix(job.name, combination);
        const runsOn = job.runsOn.map((label) => interpolateMatrix(label, combination));
        plans.push({
          jobId: job.id,
          name,
          needs: [...job.needs],
          runsOn,
          ...(job.if !== undefined ? { if: job.if } : {}),
          matrix: combination,
          payload: payloadFor(template, job, name, runsOn, combination),
        });
      }
    }
    return { ok: true, jobs: plans };
  } catch (error) {
    if (error instanceof PlanError) return { ok: false, error: error.message };
    return { ok: false, error: `invalid workflow: ${error instanceof Error ? error.message : String(error)}` };
  }
}
