/**
 * The worker thread workflow files are read in (the shared worker pool, `workers/`): parsing, matching and planning
 * a push's workflows runs there with a time budget that includes its wait, so a large or contrived file delays no
 * request. One thread, started on the first push that has workflows and ended when idle.
 */
import { OffloadBudgetError, OffloadMemoryError, OffloadPool } from '../workers/index.js';
import type { AnalyzedWorkflow, WorkflowAnalysisRequest } from './workflow-worker.js';

/** Milliseconds one analysis may take, queue wait included. */
const BUDGET_MS = 10_000;

export class WorkflowBudgetError extends Error {}

export class WorkflowPool {
  private readonly pool = new OffloadPool<WorkflowAnalysisRequest, AnalyzedWorkflow[]>({
    worker: { base: import.meta.url, built: './workflow-worker.js', source: './workflow-worker.dev.mjs' },
    threads: 1,
    // Analyses waiting before new ones are refused (a detection job is retried).
    queuePerThread: 64,
    // The largest accepted files' trees fit many times over.
    heapMb: 256,
    busyMessage: 'too many workflows are being read, try again shortly',
  });

  /**
   * The files' answers. Throws WorkflowBudgetError when they take longer than the budget (the caller reports it on
   * the runs), UnavailableError when the queue is full or the host is closing.
   */
  async analyze(request: WorkflowAnalysisRequest): Promise<AnalyzedWorkflow[]> {
    if (request.files.length === 0) return [];
    try {
      return await this.pool.run(request, BUDGET_MS);
    } catch (error) {
      if (error instanceof OffloadBudgetError) throw new WorkflowBudgetError(`reading the workflow files took longer than ${BUDGET_MS / 1000} s`);
      if (error instanceof OffloadMemoryError) throw new WorkflowBudgetError('reading the workflow files needs more memory than it may use');
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
