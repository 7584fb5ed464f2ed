/**
 * The worker thread source files are highlighted in (`highlight.ts` runs it): Lezer's parsers (CodeMirror's:
 * incremental LR parsing, linear in the input, no backtracking patterns), tokens as `tok-*` classes the stylesheet
 * colours. Parsers load on first use in the thread. Pure: the text in, escaped HTML out.
 */
import type { Parser } from '@lezer/common';
import { escapeHtml } from './html.js';

type ParserLoader = () => Promise<Parser>;

const javascript = (dialect: string) => async () => (await import('@lezer/javascript')).parser.configure({ dialect });
export const HIGHLIGHTED_LANGUAGES: ReadonlyMap<string, ParserLoader> = new Map<string, ParserLoader>([
  ['.js', javascript('')],
  ['.mjs', javascript('')],
  ['.cjs', javascript('')],
  ['.jsx', javascript('jsx')],
  ['.ts', javascript('ts')],
  ['.mts', javascript('ts')],
  ['.cts', javascript('ts')],
  ['.tsx', javascript('ts jsx')],
  ['.py', async () => (await import('@lezer/python')).parser],
  ['.json', async () => (await import('@lezer/json')).parser],
  ['.css', async () => (await import('@lezer/css')).parser],
  ['.go', async () => (await import('@lezer/go')).parser],
  ['.rs', async () => (await import('@lezer/rust')).parser],
  ['.java', async () => (await import('@lezer/java')).parser],
  ['.c', async () => (await import('@lezer/cpp')).parser],
  ['.h', async () => (await import('@lezer/cpp')).parser],
  ['.cc', async () => (await import('@lezer/cpp')).parser],
  ['.cpp', async () => (await import('@lezer/cpp')).parser],
  ['.hpp', async () => (await import('@lezer/cpp')).parser],
  ['.yaml', async () => (await import('@lezer/yaml')).parser],
  ['.yml', async () => (await import('@lezer/yaml')).parser],
  ['.html', async () => (await import('@lezer/html')).parser],
  ['.htm', async () => (await import('@lezer/html')).parser],
  ['.php', async () => (await import('@lezer/php')).parser],
]);

const loaded = new Map<string, Promise<Parser>>();


export interface HighlightTask {
  text: string;
  /** The file's extension, lower case (`.ts`). */
  extension: string;
}

/** The text as escaped HTML with `<span class="tok-…">` around tokens; null when its language has no parser. */
export default async function highlightSource(task: HighlightTask): Promise<string | null> {
  const load = HIGHLIGHTED_LANGUAGES.get(task.extension);
  if (!load) return null;
  let parser = loaded.get(task.extension);
  if (!parser) loaded.set(task.extension, (parser = load()));
  const [{ highlightCode, classHighlighter }, ready] = await Promise.all([import('@lezer/highlight'), parser]);
  let out = '';
  highlightCode(
    task.text,
    ready.parse(task.text),
    classHighlighter,
    (piece, classes) => {
      out += classes ? `<span class="${escapeHtml(classes)}">${escapeHtml(piece)}</span>` : escapeHtml(piece);
    },
    () => {
      out += '\n';
    },
  );
  return out;
}
