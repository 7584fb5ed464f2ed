/**
 * The one escaping template of the web pages: `html\`<p>${name}</p>\`` escapes every interpolated string, and only
 * a `SafeHtml` (another template's result, or `trustedHtml` of what the markup sanitizer returned) goes in as is.
 */

/** Markup known to be safe: built by `html`, or the markup domain's sanitized output. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a template takes: text (escaped), numbers, safe markup, lists of them; null, undefined and false are nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML, safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return '';
  if (value === true) return 'true';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return escapeHtml(value);
  if (!Array.isArray(value)) return escapeHtml(String(value));
  let out = '';
  for (const item of value as readonly HtmlValue[]) out += render(item);
  return out;
}

/** The tagged template: literal parts are the page's own markup, every interpolation is escaped unless safe. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup from the markup domain's sanitizer (a README, an issue body): the one other way into a page. */
export function trustedHtml(sanitized: string): SafeHtml {
  return new SafeHtml(sanitized);
}
