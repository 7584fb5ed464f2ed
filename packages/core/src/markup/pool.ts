/**
 * The worker threads markdown renders in (piscina). Each render has a time budget that includes its wait in the
 * queue: past it, the render is dropped from the queue or its worker is stopped, and the caller gets a 422 naming
 * the reason. The queue is bounded (a full one answers 503) and each worker's heap is capped, so neither slow nor
 * large documents can take the server's event loop, memory or every thread for long.
 */
import { ValidationError } from '../errors.js';
import { OffloadBudgetError, OffloadMemoryError, OffloadPool } from '../workers/index.js';
import type { RenderJob, RenderOutcome } from './render-worker.js';

export interface RenderPoolOptions {
  /** Worker threads at most; 0 means one per CPU but one, left to the event loop (at least one). */
  workers: number;
  /** Milliseconds a render may take, queue wait included. */
  budgetMs: number;
}

/** The markdown render pool of one host, over the shared worker pool (`workers/`): the refusals say what a render's are. */
export class RenderPool {
  private readonly pool: OffloadPool<RenderJob, RenderOutcome>;

  constructor(private readonly options: RenderPoolOptions) {
    this.pool = new OffloadPool({
      worker: { base: import.meta.url, built: './render-worker.js', source: './render-worker.dev.mjs' },
      threads: options.workers,
      queuePerThread: 32,
      // The largest accepted document's trees fit many times over.
      heapMb: 512,
      busyMessage: 'too many documents are being rendered, try again shortly',
    });
  }

  /** Renders one document, or throws ValidationError (too slow, too large, too deep) or UnavailableError (busy). */
  async render(job: RenderJob): Promise<{ html: string; mentions: string[] }> {
    let outcome: RenderOutcome;
    try {
      outcome = await this.pool.run(job, this.options.budgetMs);
    } catch (error) {
      if (error instanceof OffloadBudgetError) {
        const seconds = Math.round(this.options.budgetMs / 100) / 10;
        throw new ValidationError('Text', `the document took longer than ${seconds} s to render`);
      }
      if (error instanceof OffloadMemoryError) throw new ValidationError('Text', 'the document needs more memory to render than a render may use');
      throw error;
    }
    if ('tooDeep' in outcome) throw new ValidationError('Text', `the document nests blocks too deeply to render (at most ${outcome.tooDeep} levels)`);
    return outcome;
  }

  /** Stops every worker; renders in flight are refused. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
