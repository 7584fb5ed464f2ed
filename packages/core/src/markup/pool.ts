/**
 * The worker threads markdown renders in (piscina). Each render has a time budget that includes its wait in the
 * queue: past it, the render is dropped from the queue or its worker is stopped, and the caller gets a 422 naming
 * the reason. The queue is bounded (a full one answers 503) and each worker's heap is capped, so neither slow nor
 * large documents can take the server's event loop, memory or every thread for long.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { UnavailableError, ValidationError } from '../errors.js';
import type { RenderJob, RenderOutcome } from './render-worker.js';

export interface RenderPoolOptions {
  /** Worker threads at most; 0 means one per CPU but one, left to the event loop (at least one). */
  workers: number;
  /** Milliseconds a render may take, queue wait included. */
  budgetMs: number;
}

/** Renders waiting per worker before new ones are refused. */
const QUEUE_PER_WORKER = 32;
/** An idle worker ends after this long, so an idle server holds no render threads or their memory. */
const IDLE_MS = 30_000;
/** A worker's old-generation heap: the largest accepted document's trees fit many times over. */
const WORKER_HEAP_MB = 512;

/** Where the worker's code is: beside the bundle when built, the TypeScript entry's loader when run from source. */
function workerFile(): string {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './render-worker.dev.mjs' : './render-worker.js', import.meta.url).href;
}

/** The markdown render pool of one host. Threads start on the first render, not with the host. */
export class RenderPool {
  private pool: Promise<Piscina<RenderJob, RenderOutcome>> | undefined;
  private closed = false;
  /** Renders running or waiting: counted here, since piscina leaves tasks with a signal out of its queue limit. */
  private inFlight = 0;

  constructor(private readonly options: RenderPoolOptions) {}

  /** Renders one document, or throws ValidationError (too slow, too large, too deep) or UnavailableError (busy). */
  async render(job: RenderJob): Promise<{ html: string; mentions: string[] }> {
    if (this.closed) throw new UnavailableError('the server is shutting down', 5);
    if (this.inFlight >= this.workers * (1 + QUEUE_PER_WORKER)) throw new UnavailableError('too many documents are being rendered, try again shortly', 5);
    const budget = AbortSignal.timeout(this.options.budgetMs);
    let outcome: RenderOutcome;
    this.inFlight++;
    try {
      const pool = await (this.pool ??= this.start());
      outcome = await pool.run(job, { signal: budget });
    } catch (error) {
      throw this.refusal(error, budget);
    } finally {
      this.inFlight--;
    }
    if ('tooDeep' in outcome) throw new ValidationError('Text', `the document nests blocks too deeply to render (at most ${outcome.tooDeep} levels)`);
    return outcome;
  }

  /** Stops every worker; renders in flight are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await (await pool).destroy();
  }

  private get workers(): number {
    return this.options.workers > 0 ? this.options.workers : Math.max(1, availableParallelism() - 1);
  }

  private async start(): Promise<Piscina<RenderJob, RenderOutcome>> {
    const { Piscina } = await import('piscina');
    return new Piscina<RenderJob, RenderOutcome>({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: this.workers,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }

  private refusal(error: unknown, budget: AbortSignal): unknown {
    if (budget.aborted) {
      const seconds = Math.round(this.options.budgetMs / 100) / 10;
      return new ValidationError('Text', `the document took longer than ${seconds} s to render`);
    }
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') return new ValidationError('Text', 'the document needs more memory to render than a render may use');
    if (this.closed) return new UnavailableError('the server is shutting down', 5);
    return error;
  }
}
