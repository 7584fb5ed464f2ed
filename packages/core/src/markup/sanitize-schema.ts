/**
 * What survives sanitizing: GitHub's allow-list (hast-util-sanitize's default) narrowed and extended to what
 * Forgejo's renderer emits and its sanitizer lets through. Raw HTML from the document goes through the same list.
 */
import { defaultSchema, type Options as Schema } from 'rehype-sanitize';

const defaultAttributes = defaultSchema.attributes ?? {};

export const SANITIZE_SCHEMA: Schema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), 'mark', 'abbr', 'u', 'small', 'caption', 'colgroup', 'col', 'figure', 'figcaption', 'cite', 'dfn', 'bdi', 'wbr'],
  // Elements dropped with their content; any other element not allowed is replaced by its content.
  strip: ['script', 'style', 'iframe', 'frame', 'frameset', 'textarea', 'title', 'noscript', 'xmp', 'noembed', 'noframes', 'template', 'object', 'embed', 'applet', 'svg', 'math', 'select', 'option', 'head', 'meta', 'link', 'base'],
  attributes: {
    ...defaultAttributes,
    a: ['ariaLabel', 'href', 'title', ['className', 'mention', 'ref-issue'], ['target', '_blank']],
    code: [['className', 'chroma', 'display', 'is-loading', /^language-[^\s"'<>]+$/]],
    pre: [['className', 'code-block', 'is-loading']],
    span: [['className', 'emoji', 'color-preview'], 'ariaLabel', 'dataAlias'],
    img: ['ariaLabel', 'src', 'alt', 'title', 'width', 'height', 'align', ['loading', 'lazy']],
    input: [['type', 'checkbox'], ['disabled', true], 'checked', 'dataSourcePosition'],
    li: [['className', 'task-list-item']],
    ol: ['start', 'ariaDescribedBy', 'ariaLabel', 'ariaLabelledBy'],
    ul: ['ariaDescribedBy', 'ariaLabel', 'ariaLabelledBy'],
    th: ['align'],
    td: ['align'],
    div: [],
    section: [],
    h2: [],
  },
  // Ids are prefixed where they are made (headings, footnotes, raw HTML), once; see html-fragment.ts.
  clobber: [],
  clobberPrefix: '',
  protocols: {
    href: ['http', 'https', 'mailto', 'irc', 'ircs', 'xmpp'],
    src: ['http', 'https'],
    cite: ['http', 'https'],
    longDesc: ['http', 'https'],
  },
};
