/**
 * Raw HTML inside markdown, turned into hast elements so that the sanitizer judges it like everything else.
 *
 * Markdown hands raw HTML over in pieces: a block (`<details>\n<summary>…</summary>`) or one inline tag at a time
 * (`<kbd>`, then markdown text, then `</kbd>`). `nestRawHtml` reads the pieces of one parent in order and nests
 * what follows an opening tag inside it until its closing tag, as a browser would, so `<details>` … markdown …
 * `</details>` holds the markdown between. An element left open closes at the end of its parent; a stray closing
 * tag is dropped. The tokenizer is deliberately small: whatever it does not read as a tag is text, and text is
 * escaped on output, so a construct it misreads can only come out inert.
 */
import type { Element, ElementContent, Properties, RootContent, Text } from 'hast';
import { decodeNamedCharacterReference } from 'decode-named-character-reference';

/** Elements without content: never pushed as open. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Elements whose content is raw text up to their closing tag; all of them are dropped later with that content. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);
/** How deep raw HTML may nest elements within one markdown block. */
const MAX_OPEN_ELEMENTS = 64;
/** Ids and names from raw HTML get this prefix, so they cannot clobber the page's own (DOM clobbering). */
const ID_PREFIX = 'user-content-';

type Token =
  | { kind: 'text'; value: string }
  | { kind: 'start'; name: string; attributes: [string, string][]; selfClosing: boolean }
  | { kind: 'end'; name: string };

const TAG_NAME = /[A-Za-z][A-Za-z0-9-]*/y;
// The spaces before an attribute or the tag's end are skipped first (SPACES): a leading `\s*` makes a pattern
// quadratic wherever it is tried at every position of a long run of spaces.
const SPACES = /\s*/y;
const ATTRIBUTE = /([^\s"'>/=\0]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y;
const TAG_END = /(\/?)>/y;
const END_TAG = /<\/([A-Za-z][A-Za-z0-9-]*)\s*>/y;
const CHARACTER_REFERENCE = /&(?:#[xX]([0-9A-Fa-f]{1,6});?|#([0-9]{1,7});?|([A-Za-z][A-Za-z0-9]{1,31});)/g;

/** Decodes character references as HTML does (numeric and named); an unknown name stays as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(CHARACTER_REFERENCE, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) {
      const decoded = decodeNamedCharacterReference(name);
      return decoded === false ? whole : decoded;
    }
    const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    // NUL, surrogates and out-of-range code points become U+FFFD, as browsers do.
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
    return String.fromCodePoint(code);
  });
}

/** Splits an HTML fragment into text, start tags and end tags; comments, doctypes and processing instructions go. */
export function tokenizeHtml(html: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let i = 0;
  // Where an attribute list was read to no tag: reading from there fails again (see readStartTag).
  const failed = new Set<number>();
  let lower: string | undefined;
  const flush = () => {
    if (text) tokens.push({ kind: 'text', value: decodeEntities(text) });
    text = '';
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      text += html.slice(i);
      break;
    }
    text += html.slice(i, lt);
    i = lt;
    const next = html.charCodeAt(i + 1);
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      flush();
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      const end = html.indexOf('>', i);
      flush();
      i = end === -1 ? html.length : end + 1;
      continue;
    }
    if (next === 0x2f /* / */) {
      END_TAG.lastIndex = i;
      const m = END_TAG.exec(html);
      if (m) {
        flush();
        tokens.push({ kind: 'end', name: m[1]!.toLowerCase() });
        i = END_TAG.lastIndex;
        continue;
      }
    } else {
      const start = readStartTag(html, i, failed);
      if (start) {
        flush();
        tokens.push(start.token);
        i = start.end;
        if (RAW_TEXT_ELEMENTS.has(start.token.name) && !start.token.selfClosing) {
          // Skip the raw text: it is never markup, and the element is dropped with it.
          // Lowered once: once per element was quadratic in a run of `<script></script>`.
          const close = (lower ??= html.toLowerCase()).indexOf(`</${start.token.name}`, i);
          i = close === -1 ? html.length : close;
        }
        continue;
      }
    }
    text += '<';
    i += 1;
  }
  flush();
  return tokens;
}

/**
 * The start tag at `at`, or undefined when none stands there. What follows a position in the attribute list does
 * not depend on how it was reached, so the positions of a list that ended in no tag go into `failed`, and a later
 * `<` whose list reaches one of them stops there: `<a <a <a …` with no `>` is read once, not once per `<`.
 */
function readStartTag(html: string, at: number, failed: Set<number>): { token: Token & { kind: 'start' }; end: number } | undefined {
  TAG_NAME.lastIndex = at + 1;
  const name = TAG_NAME.exec(html);
  if (!name) return undefined;
  let i = TAG_NAME.lastIndex;
  const attributes: [string, string][] = [];
  const visited: number[] = [];
  for (;;) {
    if (failed.has(i)) break;
    visited.push(i);
    SPACES.lastIndex = i;
    SPACES.exec(html);
    const from = SPACES.lastIndex;
    TAG_END.lastIndex = from;
    const end = TAG_END.exec(html);
    if (end) return { token: { kind: 'start', name: name[0].toLowerCase(), attributes, selfClosing: end[1] === '/' }, end: TAG_END.lastIndex };
    ATTRIBUTE.lastIndex = from;
    const attribute = ATTRIBUTE.exec(html);
    if (!attribute) break;
    attributes.push([attribute[1]!.toLowerCase(), decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? '')]);
    i = ATTRIBUTE.lastIndex;
  }
  for (const position of visited) failed.add(position);
  return undefined;
}

/** hast property names of the HTML attributes raw HTML commonly carries; others become `data*`-style camel case. */
const PROPERTY_NAMES: Record<string, string> = {
  class: 'className',
  for: 'htmlFor',
  colspan: 'colSpan',
  rowspan: 'rowSpan',
  tabindex: 'tabIndex',
  srcset: 'srcSet',
  datetime: 'dateTime',
  longdesc: 'longDesc',
  valign: 'vAlign',
  hreflang: 'hrefLang',
  itemprop: 'itemProp',
  nowrap: 'noWrap',
  readonly: 'readOnly',
  maxlength: 'maxLength',
  accesskey: 'accessKey',
};

function propertyName(attribute: string): string {
  const known = PROPERTY_NAMES[attribute];
  if (known) return known;
  if (attribute.includes('-')) return attribute.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return attribute;
}

function elementOf(token: Token & { kind: 'start' }): Element {
  const properties: Properties = {};
  for (const [attribute, value] of token.attributes) {
    const name = propertyName(attribute);
    if (name in properties) continue; // the first of duplicated attributes wins, as in HTML
    if (name === 'className') properties.className = value.split(/\s+/).filter(Boolean);
    else if (name === 'id' || name === 'name') properties[name] = value.startsWith(ID_PREFIX) ? value : ID_PREFIX + value;
    else properties[name] = value;
  }
  return { type: 'element', tagName: token.name, properties, children: [] };
}

interface RawNode {
  type: 'raw';
  value: string;
}
type Child = RootContent | ElementContent | RawNode;

/**
 * Replaces the `raw` nodes among `children` (and, recursively, their descendants) with the elements and text
 * they spell, nesting the nodes between an opening and a closing tag inside the element.
 */
export function nestRawHtml(children: Child[]): Child[] {
  let hasRaw = false;
  for (const child of children) {
    if (child.type === 'raw') hasRaw = true;
    else if (child.type === 'element') child.children = nestRawHtml(child.children as Child[]) as ElementContent[];
  }
  if (!hasRaw) return children;
  const out: Child[] = [];
  const open: Element[] = [];
  const append = (node: Child) => {
    const top = open[open.length - 1];
    if (top) top.children.push(node as ElementContent);
    else out.push(node);
  };
  for (const child of children) {
    if (child.type !== 'raw') {
      append(child);
      continue;
    }
    for (const token of tokenizeHtml(child.value)) {
      if (token.kind === 'text') append({ type: 'text', value: token.value } satisfies Text);
      else if (token.kind === 'start') {
        const element = elementOf(token);
        append(element);
        // Past MAX_OPEN_ELEMENTS, further elements stay empty siblings: the tree walks after this recurse.
        if (!token.selfClosing && !VOID_ELEMENTS.has(token.name) && open.length < MAX_OPEN_ELEMENTS) open.push(element);
      } else {
        let at = open.length - 1;
        while (at >= 0 && open[at]!.tagName !== token.name) at--;
        if (at >= 0) open.length = at;
      }
    }
  }
  return out;
}
