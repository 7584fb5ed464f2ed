/**
 * Source files highlighted on their page (`highlight-worker.ts` does the parsing), in a worker thread of the shared
 * pool with a time budget: a large or contrived file delays only its own page, which then shows it plain.
 */
import { OffloadPool, type RepoHost } from '@repohost/core';
import { trustedHtml, type SafeHtml } from './html.js';
import { HIGHLIGHTED_LANGUAGES, type HighlightTask } from './highlight-worker.js';

/** Bytes of source highlighted at most; a larger file is shown plain. */
export const HIGHLIGHT_MAX_BYTES = 256 * 1024;
/** Milliseconds a highlight may take, queue wait included; past it the file is shown plain. */
const BUDGET_MS = 2000;

export class Highlighter {
  private readonly pool = new OffloadPool<HighlightTask, string | null>({
    worker: { base: import.meta.url, built: './highlight-worker.js', source: './highlight-worker.dev.mjs' },
    threads: 1,
    queuePerThread: 32,
    heapMb: 256,
    busyMessage: 'too many files are being highlighted',
  });

  /** The text highlighted, or undefined (shown plain): no parser for its language, too large, too slow or busy. */
  async highlight(text: string, extension: string): Promise<SafeHtml | undefined> {
    if (!HIGHLIGHTED_LANGUAGES.has(extension) || Buffer.byteLength(text) > HIGHLIGHT_MAX_BYTES) return undefined;
    try {
      const out = await this.pool.run({ text, extension }, BUDGET_MS);
      return out === null ? undefined : trustedHtml(out);
    } catch {
      // Too slow, too large for a worker's heap, a full queue or a closing server: the page shows the text plain.
      return undefined;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

const highlighters = new WeakMap<RepoHost, Highlighter>();

/** The pages' highlighter of a host (one per host served; `closeHighlighter` ends its thread). */
export function highlighterOf(host: RepoHost): Highlighter {
  let found = highlighters.get(host);
  if (!found) highlighters.set(host, (found = new Highlighter()));
  return found;
}

export async function closeHighlighter(host: RepoHost): Promise<void> {
  const found = highlighters.get(host);
  highlighters.delete(host);
  await found?.close();
}
