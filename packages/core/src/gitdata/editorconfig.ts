/**
 * A small EditorConfig reader (https://spec.editorconfig.org): the sections of one `.editorconfig` file, and the
 * properties that apply to a path, later sections winning. Globs become regular expressions once per section,
 * run on RE2: the file is anyone's, and `[*a*a*a*a*c]` on a backtracking engine is polynomial in the path.
 */
import { compileLinearRegex, type LinearRegex } from '../linear-regex.js';

/** Properties whose values are case-insensitive: they are lowered, as the specification says. */
const LOWERED = new Set(['indent_style', 'indent_size', 'tab_width', 'end_of_line', 'charset', 'trim_trailing_whitespace', 'insert_final_newline']);

/** The properties Forgejo's API answers with (the others are left out of its JSON). */
const ANSWERED = ['charset', 'indent_style', 'indent_size', 'end_of_line'] as const;

/** Numbers a `{a..b}` range is spelled out to at most; a wider range matches any integer. */
const MAX_RANGE = 1000;

export interface EditorConfigSection {
  glob: string;
  pattern: LinearRegex;
  properties: Map<string, string>;
}

export async function parseEditorConfig(text: string): Promise<EditorConfigSection[]> {
  const sections: EditorConfigSection[] = [];
  let current: EditorConfigSection | undefined;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      const glob = line.slice(1, -1);
      current = { glob, pattern: await globPattern(glob), properties: new Map() };
      sections.push(current);
      continue;
    }
    const equals = line.indexOf('=');
    // Properties before the first section (`root = true`) concern the file, not paths.
    if (equals <= 0 || !current) continue;
    const key = line.slice(0, equals).trim().toLowerCase();
    let value = line.slice(equals + 1).trim();
    if (LOWERED.has(key)) value = value.toLowerCase();
    if (key.length > 50 || value.length > 255) continue;
    current.properties.set(key, value);
  }
  return sections;
}

/** The properties for `path` (slash-separated, from the repository's root), with the specification's defaults. */
export function editorConfigFor(sections: readonly EditorConfigSection[], path: string): Record<string, string> {
  const merged = new Map<string, string>();
  for (const section of sections) {
    if (!section.pattern.test(path)) continue;
    for (const [key, value] of section.properties) merged.set(key, value);
  }
  if (merged.get('indent_style') === 'tab' && !merged.has('indent_size')) merged.set('indent_size', 'tab');
  const tabWidth = merged.get('tab_width');
  if (merged.get('indent_size') === 'tab' && tabWidth !== undefined) merged.set('indent_size', tabWidth);
  const answer: Record<string, string> = {};
  for (const key of ANSWERED) {
    const value = merged.get(key);
    if (value) answer[key] = value;
  }
  return answer;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** An EditorConfig glob as an anchored regular expression over a path from the file's folder. */
export async function globPattern(glob: string): Promise<LinearRegex> {
  let source = glob;
  // A glob without a slash matches a name in any folder; with one, it is anchored at the file's folder.
  if (!source.includes('/')) source = `**/${source}`;
  else if (source.startsWith('/')) source = source.slice(1);
  let out = '';
  let braces = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      out += escapeRegExp(source[++i]!);
    } else if (c === '*') {
      if (source[i + 1] === '*') {
        i++;
        // `**/` may match no folder at all.
        if (source[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else out += '.*';
      } else out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const close = source.indexOf(']', i + 1);
      const body = close < 0 ? '' : source.slice(i + 1, close);
      if (close < 0 || body.includes('/')) {
        out += '\\[';
      } else {
        const negated = body.startsWith('!') || body.startsWith('^');
        const chars = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&');
        out += negated ? `[^/${chars}]` : `[${chars}]`;
        i = close;
      }
    } else if (c === '{') {
      const close = matchingBrace(source, i);
      if (close < 0) {
        out += '\\{';
        continue;
      }
      const body = source.slice(i + 1, close);
      const range = /^([+-]?\d+)\.\.([+-]?\d+)$/.exec(body);
      if (range) {
        const [from, to] = [Number(range[1]), Number(range[2])].sort((a, b) => a - b) as [number, number];
        out += to - from <= MAX_RANGE ? `(?:${Array.from({ length: to - from + 1 }, (_, k) => from + k).join('|')})` : '[+-]?\\d+';
        i = close;
      } else if (!topLevelComma(body)) {
        // `{single}` is literal braces around the text, as the specification's tests expect.
        out += '\\{';
      } else {
        out += '(?:';
        braces++;
      }
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else if (c === '}' && braces > 0) {
      out += ')';
      braces--;
    } else {
      out += escapeRegExp(c);
    }
  }
  try {
    return await compileLinearRegex(`^${out}$`);
  } catch {
    // An unreadable glob matches nothing rather than failing the request.
    return { test: () => false };
  }
}

function matchingBrace(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function topLevelComma(body: string): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) return true;
  }
  return false;
}
