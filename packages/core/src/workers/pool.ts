/**
 * Worker threads for CPU-heavy work (piscina): markdown renders, workflow files, package indexes. Each task has a
 * time budget that includes its wait in the queue: past it, the task is dropped from the queue or its worker is
 * stopped. The queue is bounded (a full one answers 503), each worker's heap is capped, threads start on the first
 * task and end when idle, so neither slow nor large input can take the server's event loop, memory or every thread
 * for long. What a refusal means to the caller (a 422, a failed run) is the caller's to say.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { UnavailableError } from '../errors.js';

export interface OffloadPoolOptions {
  /**
   * The worker's module, as `import.meta.url`-relative names: `built` beside the bundle (a tsup entry of its own),
   * `source` the `.dev.mjs` loader that registers tsx first when RepoHost runs from its TypeScript sources.
   */
  worker: { base: string; built: string; source: string };
  /** Threads at most; 0 means one per CPU but one (at least one), the rest left to the event loop. */
  threads: number;
  /** Tasks waiting per thread before new ones are refused. */
  queuePerThread: number;
  /** A thread's old-generation heap, in MiB. */
  heapMb: number;
  /** What a refusal for a full queue says (503). */
  busyMessage: string;
  /** An idle thread ends after this long (default 30 s), so an idle server holds no threads or their memory. */
  idleMs?: number;
}

/** The task took longer than its budget (queue wait included). */
export class OffloadBudgetError extends Error {
  override name = 'OffloadBudgetError';
}

/** The task needed more memory than a worker may use. */
export class OffloadMemoryError extends Error {
  override name = 'OffloadMemoryError';
}

export class OffloadPool<Task, Result> {
  private pool: Promise<Piscina<Task, Result>> | undefined;
  private closed = false;
  /** Tasks running or waiting: counted here, since piscina leaves tasks with a signal out of its queue limit. */
  private inFlight = 0;

  constructor(private readonly options: OffloadPoolOptions) {}

  /** Runs one task within `budgetMs`; throws OffloadBudgetError, OffloadMemoryError or UnavailableError (busy, closing). */
  async run(task: Task, budgetMs: number): Promise<Result> {
    if (this.closed) throw new UnavailableError('the server is shutting down', 5);
    if (this.inFlight >= this.threads * (1 + this.options.queuePerThread)) throw new UnavailableError(this.options.busyMessage, 5);
    const budget = AbortSignal.timeout(budgetMs);
    this.inFlight++;
    try {
      const pool = await (this.pool ??= this.start());
      return await pool.run(task, { signal: budget });
    } catch (error) {
      if (budget.aborted) throw new OffloadBudgetError(`took longer than ${Math.round(budgetMs / 100) / 10} s`);
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new OffloadMemoryError('needs more memory than a worker may use');
      if (this.closed) throw new UnavailableError('the server is shutting down', 5);
      throw error;
    } finally {
      this.inFlight--;
    }
  }

  /** Stops every thread; tasks in flight are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await (await pool).destroy();
  }

  private get threads(): number {
    return this.options.threads > 0 ? this.options.threads : Math.max(1, availableParallelism() - 1);
  }

  private async start(): Promise<Piscina<Task, Result>> {
    const { Piscina } = await import('piscina');
    const { base, built, source } = this.options.worker;
    return new Piscina<Task, Result>({
      filename: new URL(base.endsWith('.ts') ? source : built, base).href,
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: this.options.idleMs ?? 30_000,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
    });
  }
}
