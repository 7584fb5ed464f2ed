/**
 * The markdown pipeline: micromark (remark-parse, remark-gfm) → forge syntax on mdast → hast (remark-rehype, raw
 * HTML kept as `raw` nodes) → raw HTML nested into elements → rehype-sanitize → Forgejo's link attributes →
 * rehype-stringify. One frozen processor per output style, built once per process; a render allocates nothing
 * else that lives past it.
 */
import { unified, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import type { Element, ElementContent, Root as HastRoot, RootContent as HastRootContent } from 'hast';
import type { Code, Root } from 'mdast';
import { applyForgeSyntax, collectMentions, type ForgeSyntaxOptions, type HastInMdast } from './forge-syntax.js';
import { nestRawHtml } from './html-fragment.js';
import { SANITIZE_SCHEMA } from './sanitize-schema.js';

/** Languages whose code blocks the browser renders itself (Forgejo marks them `is-loading`). */
const CLIENT_RENDERED = new Set(['mermaid', 'math']);

/** Fenced and indented code as Forgejo wraps it: `<pre class="code-block"><code class="chroma language-x display">`. */
function codeBlock(_state: unknown, node: Code): Element {
  const language = node.lang?.trim() || 'text';
  const code: Element = {
    type: 'element',
    tagName: 'code',
    properties: { className: ['chroma', `language-${language}`, 'display'] },
    children: node.value ? [{ type: 'text', value: `${node.value}\n` }] : [],
  };
  return { type: 'element', tagName: 'pre', properties: { className: CLIENT_RENDERED.has(language) ? ['code-block', 'is-loading'] : ['code-block'] }, children: [code] };
}

/** Nodes the forge syntax built as hast already. */
function prebuilt(_state: unknown, node: HastInMdast): Element {
  return node.data.element;
}

/** The footnote footer: a `div` whose blocks sit on their own lines, like every other block's. */
function footnoteSection(state: { all(node: unknown): ElementContent[]; wrap(nodes: ElementContent[], loose?: boolean): ElementContent[] }, node: unknown): Element {
  return { type: 'element', tagName: 'div', properties: {}, children: state.wrap(state.all(node), true) };
}

/** Raw HTML pieces become elements before sanitizing, so the allow-list judges them (see html-fragment.ts). */
function nestRaw() {
  return (tree: HastRoot) => {
    tree.children = nestRawHtml(tree.children) as HastRootContent[];
  };
}

/** Every link gets `rel="nofollow"` (and `noopener` when it opens a new tab), as Forgejo's sanitizer adds. */
function linkAttributes() {
  return (tree: HastRoot) => {
    const walk = (nodes: (HastRootContent | ElementContent)[]) => {
      for (const node of nodes) {
        if (node.type !== 'element') continue;
        if (node.tagName === 'a') node.properties.rel = node.properties.target === '_blank' ? ['nofollow', 'noopener'] : ['nofollow'];
        if (node.children.length > 0) walk(node.children);
      }
    };
    walk(tree.children);
  };
}

function buildProcessor(xhtml: boolean) {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, {
      allowDangerousHtml: true,
      // Footnotes are built by the forge syntax in Forgejo's shape; ids are prefixed there, once.
      clobberPrefix: '',
      handlers: { code: codeBlock, hast: prebuilt, footnoteSection } as Record<string, unknown> as never,
    })
    .use(nestRaw)
    .use(rehypeSanitize, SANITIZE_SCHEMA)
    .use(linkAttributes)
    .use(rehypeStringify, {
      // Forgejo's rendered markup closes void elements (`<br/>`); its raw markdown mode does not.
      closeSelfClosing: xhtml,
      tightSelfClosing: xhtml,
      characterReferences: { useNamedReferences: true },
    })
    .freeze();
}

let processors: { xhtml: Processor<Root, Root, HastRoot, HastRoot, string>; html: Processor<Root, Root, HastRoot, HastRoot, string> } | undefined;

function processor(xhtml: boolean) {
  processors ??= { xhtml: buildProcessor(true) as never, html: buildProcessor(false) as never };
  return xhtml ? processors.xhtml : processors.html;
}

/** A parsed document and the names it mentions. */
export interface ParsedMarkdown {
  tree: Root;
  mentions: Set<string>;
}

/** Blocks nested deeper than this (quotes in quotes, lists in lists) are refused: parsing them costs quadratic time. */
export const MAX_BLOCK_NESTING = 100;

/**
 * How deep the deepest line nests blocks, estimated from its start: one level per `>` and list marker, and one per
 * two columns of indentation. An over-estimate for indented code, which is fine for a limit this far from use.
 */
export function blockNesting(text: string): number {
  let deepest = 0;
  let depth = 0;
  let columns = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) {
      lineStart = true;
      depth = 0;
      columns = 0;
      continue;
    }
    if (!lineStart) continue;
    if (c === 0x20) columns += 1;
    else if (c === 0x09) columns += 4;
    else if (c === 0x3e /* > */) depth += 1;
    else if ((c === 0x2d || c === 0x2a || c === 0x2b) /* - * + */ && (i + 1 === text.length || text.charCodeAt(i + 1) === 0x20 || text.charCodeAt(i + 1) === 0x09)) depth += 1;
    else if (c >= 0x30 && c <= 0x39) {
      let j = i;
      while (j < text.length && j - i < 9 && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
      const mark = text.charCodeAt(j);
      if ((mark === 0x2e || mark === 0x29) && (j + 1 === text.length || text.charCodeAt(j + 1) === 0x20)) {
        depth += 1;
        i = j;
      } else lineStart = false;
    } else lineStart = false;
    const level = depth + (columns >> 1);
    if (level > deepest) deepest = level;
  }
  return deepest;
}

/** Parses markdown (CRLF and CR line endings read as LF); collects `@mention` candidates when asked. */
export function parseMarkdown(text: string, withMentions: boolean): ParsedMarkdown {
  if (blockNesting(text) > MAX_BLOCK_NESTING) throw new RangeError(`blocks nested more than ${MAX_BLOCK_NESTING} deep`);
  const tree = processor(true).parse(text) as Root;
  return { tree, mentions: withMentions ? collectMentions(tree) : new Set() };
}

/** Renders a parsed document to sanitized HTML. The tree is consumed. */
export function renderParsed(parsed: ParsedMarkdown, options: ForgeSyntaxOptions, xhtml: boolean): string {
  applyForgeSyntax(parsed.tree, options);
  const p = processor(xhtml);
  const hast = p.runSync(parsed.tree);
  // Forgejo ends every block with a line break, and a dropped first block leaves none before the next.
  const html = p.stringify(hast).trim();
  return html === '' ? '' : `${html}\n`;
}
