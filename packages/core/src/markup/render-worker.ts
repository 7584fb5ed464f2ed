/**
 * One markdown render, as a worker thread of the render pool (`pool.ts`) runs it: parse, forge syntax, sanitize,
 * stringify. It runs here rather than on the server's event loop because markdown parsing has inputs that cost
 * seconds per kilobyte (nested brackets, emphasis runs); the pool stops a worker that overruns its budget.
 */
import type { ForgeSyntaxOptions } from './forge-syntax.js';
import { MAX_BLOCK_NESTING, parseMarkdown, renderParsed } from './render.js';

/** What the main thread sends: everything a render needs, with the names it looked up as mentionable. */
export interface RenderJob {
  text: string;
  /** Off in raw `markdown` mode: no mentions, references or emoji. */
  withMentions: boolean;
  xhtml: boolean;
  options: Omit<ForgeSyntaxOptions, 'source'>;
}

export type RenderOutcome =
  /** The HTML, and the lower-cased names the document really mentions (outside code and links). */
  | { html: string; mentions: string[] }
  /** Blocks nested past MAX_BLOCK_NESTING, or deeper than the tree walks' stack holds. */
  | { tooDeep: number };

export default function renderJob(job: RenderJob): RenderOutcome {
  try {
    const parsed = parseMarkdown(job.text, job.withMentions);
    const mentions = [...parsed.mentions];
    const html = renderParsed(parsed, { ...job.options, source: job.text }, job.xhtml);
    return { html, mentions };
  } catch (error) {
    if (error instanceof RangeError) return { tooDeep: MAX_BLOCK_NESTING };
    throw error;
  }
}
