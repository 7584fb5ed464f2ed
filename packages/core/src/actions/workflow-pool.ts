/**
 * The worker thread workflow files are read in (piscina, as markdown renders are): parsing, matching and planning
 * a push's workflows runs there with a time budget that includes its wait, so a large or contrived file delays no
 * request. One thread, started on the first push that has workflows and ended when idle.
 */
import type { Piscina } from 'piscina';
import { UnavailableError } from '../errors.js';
import type { AnalyzedWorkflow, WorkflowAnalysisRequest } from './workflow-worker.js';

/** Milliseconds one analysis may take, queue wait included. */
const BUDGET_MS = 10_000;
/** Analyses waiting before new ones are refused (a detection job is retried). */
const QUEUE = 64;
const IDLE_MS = 30_000;
/** A worker's old-generation heap: the largest accepted files' trees fit many times over. */
const WORKER_HEAP_MB = 256;

function workerFile(): string {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './workflow-worker.dev.mjs' : './workflow-worker.js', import.meta.url).href;
}

export class WorkflowBudgetError extends Error {}

export class WorkflowPool {
  private pool: Promise<Piscina<WorkflowAnalysisRequest, AnalyzedWorkflow[]>> | undefined;
  private closed = false;
  private inFlight = 0;

  /**
   * The files' answers. Throws WorkflowBudgetError when they take longer than the budget (the caller reports it on
   * the runs), UnavailableError when the queue is full or the host is closing.
   */
  async analyze(request: WorkflowAnalysisRequest): Promise<AnalyzedWorkflow[]> {
    if (request.files.length === 0) return [];
    if (this.closed) throw new UnavailableError('the server is shutting down', 5);
    if (this.inFlight >= 1 + QUEUE) throw new UnavailableError('too many workflows are being read, try again shortly', 5);
    const budget = AbortSignal.timeout(BUDGET_MS);
    this.inFlight++;
    try {
      const pool = await (this.pool ??= this.start());
      return await pool.run(request, { signal: budget });
    } catch (error) {
      if (budget.aborted) throw new WorkflowBudgetError(`reading the workflow files took longer than ${BUDGET_MS / 1000} s`);
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new WorkflowBudgetError('reading the workflow files needs more memory than it may use');
      if (this.closed) throw new UnavailableError('the server is shutting down', 5);
      throw error;
    } finally {
      this.inFlight--;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await (await pool).destroy();
  }

  private async start(): Promise<Piscina<WorkflowAnalysisRequest, AnalyzedWorkflow[]>> {
    const { Piscina } = await import('piscina');
    return new Piscina<WorkflowAnalysisRequest, AnalyzedWorkflow[]>({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }
}
