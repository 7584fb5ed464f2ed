/**
 * Forgejo's additions to markdown, as one pass over the markdown tree (mdast) between parsing and HTML:
 * heading ids, task-list checkboxes, footnotes in Forgejo's shape, links and images resolved against the render's
 * base (images wrapped in a link), math, and, in the forge modes, `@mentions`, issue references, commit SHAs,
 * `:emoji:` and `[[wiki links]]`. Each rule is a plain function over text; nothing here reads the database:
 * mention candidates are collected first (`collectMentions`) and looked up once, by the caller.
 */
import type { Element, ElementContent } from 'hast';
import type { FootnoteDefinition, Heading, Image, Link, List, ListItem, Nodes, Paragraph, Parent, PhrasingContent, Root, RootContent, Text } from 'mdast';
import { EMOJI_TABLE } from './emoji-data.js';
import { resolveLink, resolveShortLink, type LinkBase } from './links.js';
import { trimEnd } from '../text.js';

/** What one render's forge syntax needs to know. */
export interface ForgeSyntaxOptions {
  links: LinkBase;
  /** ROOT_URL, with its trailing slash: mentions and cross-repository references point under it. */
  appUrl: string;
  /** The web URL of the repository the render happens in (from its context), for commit SHAs. */
  repoUrl?: string | undefined;
  /** Where `#123` points (`<issueBase>/issues/123`); undefined leaves `#123` as text. */
  issueBase?: string | undefined;
  /** `@mentions`, references, SHAs, emoji and wiki links (off in `markdown` mode). */
  forgeExtensions: boolean;
  /** Soft line breaks become `<br>` (comments and raw markdown, as Forgejo's settings default). */
  hardBreaks: boolean;
  /** Lower-cased names that `@name` may link to. */
  mentionable: ReadonlySet<string>;
  /** The markdown source, for the offsets task-list checkboxes carry. */
  source: string;
}

const EMOJI = new Map(EMOJI_TABLE.map(([name, emoji, description]) => [name, { emoji, description }]));

// Each starts after what may stand before a mention or reference (Forgejo: start, whitespace, `(`, `[`); written
// out as literals so that the linearity test reads them. A reference ends at the end, a space or bracket, or
// punctuation followed by either.
const MENTION = /(?<=^|[\s(\[])@([\w-][\w.-]*)(?=$|[\s)\]:,.])/gu;
const CROSS_REFERENCE = /(?<=^|[\s(\[])([\w.-]+)\/([\w.-]+)#([0-9]+)(?=$|[\s)\]]|[:;,.?!](?:\s|$))/g;
const ISSUE_REFERENCE = /(?<=^|[\s(\[])#([0-9]+)(?=$|[\s)\]]|[:;,.?!](?:\s|$))/g;
const COMMIT_SHA = /(?<=^|[\s(\[])([0-9a-f]{7,64})(?=$|[\s)\]]|[.,:](?:\s|$))/g;
const EMOJI_CODE = /:([\w+-]+):/g;
const IMAGE_EXTENSION = /\.(?:png|jpe?g|gif|webp|svg|bmp|ico|tiff?|avif)$/i;

/** What `split` runs over a text: a global pattern, or a scanner with the same `lastIndex`/`exec` contract. */
interface Matcher {
  lastIndex: number;
  exec(text: string): RegExpExecArray | null;
}

/** A match as `RegExp.prototype.exec` returns it: the whole match, then the groups. */
function execResult(text: string, index: number, parts: string[]): RegExpExecArray {
  return Object.assign(parts, { index, input: text, groups: undefined }) as unknown as RegExpExecArray;
}

/**
 * `[[…]]` wiki links, found as `/\[\[([^\]\n]+?)\]\]/g` found them (the inner text runs to the first `]` or line
 * feed), by scanning: that pattern ran from every `[[` to the end of its line, quadratic on a long run of `[`.
 */
const WIKI_LINK: Matcher = {
  lastIndex: 0,
  exec(text) {
    const next = (char: string, from: number) => {
      const found = text.indexOf(char, from);
      return found === -1 ? text.length : found;
    };
    // The next `]` and line feed at or after the current inner text: each only moves forward.
    let close = -1;
    let newline = -1;
    for (let at = text.indexOf('[[', this.lastIndex); at >= 0; at = text.indexOf('[[', at + 1)) {
      if (close < at + 2) close = next(']', at + 2);
      if (newline < at + 2) newline = next('\n', at + 2);
      const end = Math.min(close, newline);
      if (end > at + 2 && end === close && text[end + 1] === ']') {
        this.lastIndex = end + 2;
        return execResult(text, at, [text.slice(at, end + 2), text.slice(at + 2, end)]);
      }
    }
    this.lastIndex = 0;
    return null;
  },
};

/** Names `@mentioned` in the document's text, lower-cased: the one lookup a render makes. */
export function collectMentions(tree: Root): Set<string> {
  const names = new Set<string>();
  const walk = (node: Nodes, inLink: boolean) => {
    if (node.type === 'text') {
      if (inLink || !node.value.includes('@')) return;
      for (const m of node.value.matchAll(MENTION)) names.add(trimMention(m[1]!).toLowerCase());
      return;
    }
    if ('children' in node) for (const child of node.children) walk(child, inLink || node.type === 'link' || node.type === 'linkReference');
  };
  walk(tree, false);
  return names;
}

/** A mention ends before trailing dots (`@alice.` is alice). */
function trimMention(name: string): string {
  return trimEnd(name, '.');
}

/** Heading ids as goldmark's auto-ids, with Forgejo's `user-content-` prefix: lower-case words joined by `-`. */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * A node that becomes exactly the given hast element: the renderer's `hast` handler returns `data.element` as it
 * is (cheaper than `data.hProperties`, which mdast-util-to-hast deep-clones for every node).
 */
export interface HastInMdast {
  type: 'hast';
  data: { element: Element };
}

function hastNode(tagName: string, properties: Element['properties'], children: ElementContent[]): PhrasingContent {
  const node: HastInMdast = { type: 'hast', data: { element: { type: 'element', tagName, properties, children } } };
  return node as unknown as PhrasingContent;
}

function textElement(tagName: string, properties: Element['properties'], value: string): PhrasingContent {
  return hastNode(tagName, properties, value === '' ? [] : [{ type: 'text', value }]);
}

/** A link whose content is plain text (mentions, references, wiki links). */
function textLink(href: string, value: string, className?: string): PhrasingContent {
  return textElement('a', className ? { href, className: [className] } : { href }, value);
}

/** Applies the forge syntax to a parsed document, in place. */
export function applyForgeSyntax(tree: Root, options: ForgeSyntaxOptions): void {
  const seenIds = new Map<string, number>();
  const footnotes = collectFootnotes(tree);
  const repoUrl = options.repoUrl;
  const issueBase = options.issueBase;

  const uniqueId = (slug: string) => {
    const count = seenIds.get(slug);
    seenIds.set(slug, (count ?? 0) + 1);
    return count === undefined ? slug : `${slug}-${count}`;
  };

  /** Splits text segments by one rule; `make` returns the nodes for a match, or undefined to leave it as text. */
  const split = (nodes: PhrasingContent[], pattern: Matcher, make: (m: RegExpExecArray) => PhrasingContent[] | undefined): PhrasingContent[] => {
    const out: PhrasingContent[] = [];
    for (const node of nodes) {
      if (node.type !== 'text') {
        out.push(node);
        continue;
      }
      const value = node.value;
      let last = 0;
      pattern.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = pattern.exec(value)) !== null) {
        const made = make(m);
        if (!made) continue;
        if (m.index > last) out.push({ type: 'text', value: value.slice(last, m.index) });
        out.push(...made);
        last = m.index + m[0].length;
      }
      if (last === 0) out.push(node);
      else if (last < value.length) out.push({ type: 'text', value: value.slice(last) });
    }
    return out;
  };

  const expandText = (node: Text, inLink: boolean): PhrasingContent[] => {
    const value = node.value;
    let nodes: PhrasingContent[] = [node];
    if (value.includes('$')) nodes = split(nodes, INLINE_MATH, inlineMath);
    if (options.forgeExtensions && !inLink) {
      if (value.includes('[[')) nodes = split(nodes, WIKI_LINK, (m) => wikiLink(m[1]!));
      if (value.includes('@')) {
        nodes = split(nodes, MENTION, (m) => {
          const name = trimMention(m[1]!);
          if (!options.mentionable.has(name.toLowerCase())) return undefined;
          const mention = textLink(`${options.appUrl}${name}`, `@${name}`, 'mention');
          const rest = m[1]!.slice(name.length);
          return rest ? [mention, { type: 'text', value: rest }] : [mention];
        });
      }
      if (value.includes('#')) {
        nodes = split(nodes, CROSS_REFERENCE, (m) => [
          textLink(`${options.appUrl}${m[1]}/${m[2]}/issues/${m[3]}`, m[0], 'ref-issue'),
        ]);
        if (issueBase) {
          nodes = split(nodes, ISSUE_REFERENCE, (m) => [textLink(`${issueBase}/issues/${m[1]}`, m[0], 'ref-issue')]);
        }
      }
      if (repoUrl) {
        nodes = split(nodes, COMMIT_SHA, (m) => {
          // All digits is a number far more often than a commit.
          if (/^[0-9]+$/.test(m[1]!)) return undefined;
          const code: Element = { type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: m[1]!.slice(0, 10) }] };
          return [hastNode('a', { href: `${repoUrl}/commit/${m[1]}` }, [code])];
        });
      }
    }
    if (options.forgeExtensions && value.includes(':')) {
      nodes = split(nodes, EMOJI_CODE, (m) => {
        const found = EMOJI.get(m[1]!);
        if (!found) return undefined;
        return [textElement('span', { className: ['emoji'], ariaLabel: found.description, dataAlias: m[1] }, found.emoji)];
      });
    }
    if (options.hardBreaks && value.includes('\n')) {
      // The break element is followed by its own line ending when converted to HTML.
      nodes = split(nodes, /\n/g, () => [{ type: 'break' }]);
    }
    return nodes;
  };

  const wikiLink = (inner: string): PhrasingContent[] | undefined => {
    const parts = inner.split('|').map((p) => p.trim());
    const target = parts[parts.length - 1]!;
    if (target === '') return undefined;
    const name = parts.length > 1 ? parts[0]! : undefined;
    if (IMAGE_EXTENSION.test(target)) {
      const src = resolveShortLink(options.links, target, true);
      const title = name ?? target.slice(target.lastIndexOf('/') + 1);
      const img: Element = { type: 'element', tagName: 'img', properties: { src, title, alt: name === undefined ? target : '' }, children: [] };
      return [hastNode('a', { href: src }, [img])];
    }
    const page = options.links.wiki && !/^[a-z][a-z0-9+.-]*:/i.test(target) ? target.replace(/ /g, '-') : target;
    return [textLink(resolveShortLink(options.links, page, false), name ?? target)];
  };

  const visit = (parent: Parent, inLink: boolean): void => {
    if (options.forgeExtensions && !inLink) mergeAutolinksInWikiLinks(parent);
    const children = parent.children as RootContent[];
    for (let i = 0; i < children.length; i++) {
      const node = children[i]!;
      switch (node.type) {
        case 'text': {
          const expanded = expandText(node, inLink);
          if (expanded.length !== 1 || expanded[0] !== node) {
            children.splice(i, 1, ...(expanded as RootContent[]));
            i += expanded.length - 1;
          }
          continue;
        }
        case 'heading':
          headingId(node, uniqueId);
          break;
        case 'link':
          node.url = resolveLink(options.links, node.url, false);
          visit(node, true);
          continue;
        case 'image': {
          // Forgejo links an image to itself (in a new tab) unless it is already inside a link.
          const src = resolveLink(options.links, node.url, true);
          const img: Element = { type: 'element', tagName: 'img', properties: { src, alt: node.alt ?? '', ...(node.title ? { title: node.title } : {}), loading: 'lazy' }, children: [] };
          children[i] = (inLink ? hastNode('img', img.properties, []) : hastNode('a', { href: src, target: '_blank' }, [img])) as RootContent;
          continue;
        }
        case 'listItem':
          taskCheckbox(node, options.source);
          break;
        case 'footnoteReference': {
          const call = footnotes.call(node.identifier);
          if (call) children[i] = call as RootContent;
          continue;
        }
        case 'paragraph': {
          const math = blockMath(node);
          if (math) {
            children[i] = math;
            continue;
          }
          break;
        }
        default:
          break;
      }
      if ('children' in node) visit(node, inLink);
    }
  };
  visit(tree, false);
  const section = footnotes.section();
  if (section) {
    visit(section as unknown as Parent, false);
    tree.children.push(section as unknown as RootContent);
  }
}

/** True for a link GFM made from a bare URL or address (its text is its URL). */
function isLiteralAutolink(node: RootContent): node is Link {
  if (node.type !== 'link' || node.children.length !== 1 || node.children[0]!.type !== 'text') return false;
  const text = node.children[0].value;
  return node.url === text || node.url === `http://${text}` || node.url === `mailto:${text}`;
}

/**
 * `[[name|https://example.com]]`: GFM has already made a link of the URL inside; put it back into the text, so the
 * wiki link reads whole.
 */
function mergeAutolinksInWikiLinks(parent: Parent): void {
  const children = parent.children as RootContent[];
  if (!children.some((c) => c.type === 'text' && c.value.includes('[[')) || !children.some(isLiteralAutolink)) return;
  const merged: RootContent[] = [];
  for (const child of children) {
    const previous = merged[merged.length - 1];
    const inOpenWikiLink = previous?.type === 'text' && previous.value.lastIndexOf('[[') > previous.value.lastIndexOf(']]');
    if (inOpenWikiLink && isLiteralAutolink(child)) previous.value += (child.children[0] as Text).value;
    else if (previous?.type === 'text' && child.type === 'text') previous.value += child.value;
    else merged.push(child.type === 'text' ? { ...child } : child);
  }
  parent.children = merged as Parent['children'];
}

/** `$…$` (not `$$`) standing apart from words, as Forgejo's math extension reads inline math. */
const INLINE_MATH = /(?<=^|[\s(])(\$\$?)([^$\n]+?)\1(?=$|[\s).,;:!?])/g;

function inlineMath(m: RegExpExecArray): PhrasingContent[] | undefined {
  const display = m[1] === '$$';
  const body = m[2]!.trim();
  if (body === '') return undefined;
  return [textElement('code', { className: display ? ['language-math', 'display', 'is-loading'] : ['language-math', 'is-loading'] }, body)];
}

/** A paragraph that is only `$$ … $$` is a display math block. */
function blockMath(node: Paragraph): RootContent | undefined {
  if (node.children.length !== 1 || node.children[0]!.type !== 'text') return undefined;
  const value = node.children[0].value;
  if (!value.startsWith('$$') || !value.endsWith('$$') || value.length < 5) return undefined;
  const body = value.slice(2, -2);
  if (body.includes('$$') || body.trim() === '') return undefined;
  const code: Element = { type: 'element', tagName: 'code', properties: { className: ['chroma', 'language-math', 'display'] }, children: [{ type: 'text', value: body.replace(/^\n|\n$/g, '') }] };
  return hastNode('pre', { className: ['code-block', 'is-loading'] }, [code]) as unknown as RootContent;
}

const SPACE = /\s/;
const ID_CHAR = /[\w-]/;

/**
 * `{#id}` ending a heading's text, as `/\s*\{#([\w-]+)\}\s*$/` found it: the id, and where the spaces before it
 * start. By scanning from the end: the pattern retried every space of a long run that was not at the end.
 */
function customHeadingId(text: string): { at: number; id: string } | undefined {
  const trimmed = text.trimEnd();
  const close = trimmed.length - 1;
  if (trimmed[close] !== '}') return undefined;
  let start = close;
  while (start > 0 && ID_CHAR.test(trimmed[start - 1]!)) start--;
  if (start === close || start < 2 || trimmed[start - 1] !== '#' || trimmed[start - 2] !== '{') return undefined;
  let at = start - 2;
  while (at > 0 && SPACE.test(trimmed[at - 1]!)) at--;
  return { at, id: trimmed.slice(start, close) };
}

function headingId(node: Heading, uniqueId: (slug: string) => string): void {
  // `## Title {#custom-id}` names the id itself.
  const last = node.children[node.children.length - 1];
  let custom: string | undefined;
  if (last?.type === 'text') {
    const found = customHeadingId(last.value);
    if (found) {
      custom = found.id;
      last.value = last.value.slice(0, found.at);
    }
  }
  const slug = custom ?? (slugify(plainText(node)) || 'heading');
  node.data = { ...node.data, hProperties: { ...(node.data?.hProperties ?? {}), id: `user-content-${uniqueId(slug)}` } };
}

function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'html') return node.value;
  if ('children' in node) return node.children.map((c) => plainText(c)).join('');
  if (node.type === 'image') return node.alt ?? '';
  return '';
}

/** The checkbox of a task-list item, where Forgejo puts it, with the source offset its editor toggles. */
function taskCheckbox(item: ListItem, source: string): void {
  if (typeof item.checked !== 'boolean') return;
  const checked = item.checked;
  item.checked = null;
  const start = item.position?.start.offset;
  const offset = start === undefined ? undefined : source.indexOf('[', start);
  const properties: Record<string, unknown> = { type: 'checkbox', disabled: true };
  if (offset !== undefined && offset >= 0) properties.dataSourcePosition = String(offset);
  if (checked) properties.checked = true;
  const box = hastNode('input', properties as Element['properties'], []);
  const first = item.children[0];
  if (first?.type === 'paragraph') first.children.unshift(box);
  else item.children.unshift({ type: 'paragraph', children: [box] });
  item.data = { ...item.data, hProperties: { className: ['task-list-item'] } };
  // A task item's paragraph stays inline (`<li><input/>text</li>`), as Forgejo renders it.
  item.spread = false;
}

/** Footnote definitions by identifier, numbered in order of first reference; rendered as Forgejo's footer. */
function collectFootnotes(tree: Root) {
  const definitions = new Map<string, FootnoteDefinition>();
  const removeDefinitions = (parent: Parent) => {
    parent.children = (parent.children as RootContent[]).filter((child) => {
      if (child.type === 'footnoteDefinition') {
        if (!definitions.has(child.identifier)) definitions.set(child.identifier, child);
        return false;
      }
      if ('children' in child) removeDefinitions(child);
      return true;
    }) as Parent['children'];
  };
  removeDefinitions(tree);
  const order: { definition: FootnoteDefinition; id: string }[] = [];
  const byIdentifier = new Map<string, { id: string; number: number }>();
  return {
    call(identifier: string): PhrasingContent | undefined {
      const definition = definitions.get(identifier);
      if (!definition) return undefined;
      let entry = byIdentifier.get(identifier);
      const first = !entry;
      if (!entry) {
        const id = slugify(definition.label ?? identifier) || String(order.length + 1);
        entry = { id, number: order.length + 1 };
        byIdentifier.set(identifier, entry);
        order.push({ definition, id });
      }
      const anchor: Element = { type: 'element', tagName: 'a', properties: { href: `#fn:user-content-${entry.id}` }, children: [{ type: 'text', value: String(entry.number) }] };
      return hastNode('sup', first ? { id: `fnref:user-content-${entry.id}` } : {}, [anchor]);
    },
    section(): RootContent | undefined {
      if (order.length === 0) return undefined;
      const items: ListItem[] = [];
      // Definitions may reference further footnotes: those join the list while it is being built.
      for (let n = 0; n < order.length; n++) {
        const { definition, id } = order[n]!;
        const children = definition.children;
        const back = textLink(`#fnref:user-content-${id}`, '\u21a9\ufe0e');
        const last = children[children.length - 1];
        if (last?.type === 'paragraph') last.children.push({ type: 'text', value: ' ' }, back);
        else children.push({ type: 'paragraph', children: [{ type: 'text', value: ' ' }, back] });
        items.push({ type: 'listItem', spread: true, children, data: { hProperties: { id: `fn:user-content-${id}` } } });
        resolveNestedCalls(children, this.call.bind(this));
      }
      const list: List = { type: 'list', ordered: true, spread: true, children: items };
      return { type: 'footnoteSection', children: [{ type: 'thematicBreak' }, list] } as unknown as RootContent;
    },
  };
}

/** Footnote references inside footnote definitions, replaced as the footer is built. */
function resolveNestedCalls(nodes: RootContent[], call: (identifier: string) => PhrasingContent | undefined): void {
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.type === 'footnoteReference') {
      const replaced = call(node.identifier);
      if (replaced) nodes[i] = replaced as RootContent;
    } else if ('children' in node) resolveNestedCalls(node.children as RootContent[], call);
  }
}
