/**
 * Renderers for files that are not markdown (`POST /markup` in `file` mode): CSV and TSV as a table, anything else
 * as escaped text in a `<pre>`. Their output is built from escaped text only, so it needs no sanitizing.
 */

/** Extensions rendered as markdown (Forgejo's `[markdown] FILE_EXTENSIONS` default). */
export const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.livemd']);

/** How a file is rendered, by its extension. */
export type FileRenderer = 'markdown' | 'csv' | 'tsv' | 'text';

export function fileRenderer(filePath: string): FileRenderer {
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot).toLowerCase() : '';
  if (MARKDOWN_EXTENSIONS.has(extension)) return 'markdown';
  if (extension === '.csv') return 'csv';
  if (extension === '.tsv') return 'tsv';
  return 'text';
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Plain text, escaped, in a `<pre>`. */
export function renderPlainText(text: string): string {
  return `<pre>${escapeHtml(text)}</pre>`;
}

/** Rows of a delimiter-separated file (RFC 4180 quoting: `"a ""b"""`, line breaks inside quotes). */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    field = '';
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
    i++;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/** A CSV/TSV file as Forgejo's table: the first row as the header, every row numbered. */
export function renderDelimited(text: string, delimiter: string): string {
  const rows = parseDelimited(text, delimiter);
  let html = '<table class="data-table">';
  rows.forEach((row, index) => {
    const cell = index === 0 ? 'th' : 'td';
    html += `<tr><${cell} class="line-num">${index + 1}</${cell}>`;
    for (const field of row) html += `<${cell}>${escapeHtml(field)}</${cell}>`;
    html += '</tr>';
  });
  return `${html}</table>`;
}
