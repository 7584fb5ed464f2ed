/**
 * SourceHut builds (services/webhook/sourcehut/builds.go): submits the repository's build manifest to
 * builds.sr.ht's GraphQL API on push and on branch/tag creation. The manifest is read at the pushed commit: the
 * formatter names it in `filesWanted` and the deliverer passes its text in `FormattedHook.files`. The manifest gets
 * the repository (at that commit) as a source and `BUILD_SUBMITTER`, `BUILD_SUBMITTER_URL`, `GIT_REF` in its
 * environment. A manifest that cannot be read is reported in the request's `error` field, as Forgejo does, so it
 * shows in the hook's deliveries.
 * Settings: `manifest_path` (required, a relative path), `visibility` (PUBLIC, UNLISTED, PRIVATE), `secrets`.
 */
import { ValidationError } from '../../errors.js';
import { bool, goJson, obj, repoOf, shortRefName, str } from './common.js';
import type { FormattedHook, HookEventName, HookFormatter, HookPayload } from './types.js';

const VISIBILITIES: ReadonlySet<string> = new Set(['PUBLIC', 'UNLISTED', 'PRIVATE']);
const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['', false],
  ['true', true],
  ['on', true],
  ['1', true],
  ['false', false],
  ['off', false],
  ['0', false],
]);

const SUBMIT_MUTATION = `mutation (
\t$manifest: String!
\t$tags: [String!]
\t$note: String!
\t$secrets: Boolean!
\t$execute: Boolean!
\t$visibility: Visibility!
) {
\tsubmit(
\t\tmanifest: $manifest
\t\ttags: $tags
\t\tnote: $note
\t\tsecrets: $secrets
\t\texecute: $execute
\t\tvisibility: $visibility
\t) {
\t\tid
\t}
}`;

/** Go's `fs.ValidPath`: unrooted, slash-separated, no empty, `.` or `..` elements (`.` alone is the root). */
function isValidPath(path: string): boolean {
  if (path === '.') return true;
  return path.split('/').every((el) => el !== '' && el !== '.' && el !== '..');
}

interface BuildsMeta {
  manifest_path: string;
  visibility: string;
  secrets: boolean;
}

function metaOf(meta: Record<string, unknown>): BuildsMeta {
  return {
    manifest_path: typeof meta.manifest_path === 'string' ? meta.manifest_path : '',
    visibility: typeof meta.visibility === 'string' ? meta.visibility : '',
    secrets: meta.secrets === true,
  };
}

/** The commit, ref, ref type and note of an event this type submits builds for. */
function target(event: HookEventName, p: HookPayload): { commit: string; ref: string; refType: string; note: string } | undefined {
  if (event === 'push') {
    const head = obj(p, 'head_commit');
    const ref = str(p, 'ref');
    const refType = ref.startsWith('refs/tags/') ? 'tag' : ref.startsWith('refs/heads/') ? 'branch' : '';
    return str(head, 'id') === '' ? undefined : { commit: str(head, 'id'), ref, refType, note: str(head, 'message') };
  }
  if (event === 'create') {
    const ref = str(p, 'ref');
    const refType = str(p, 'ref_type');
    return { commit: str(p, 'sha'), ref, refType, note: `${refType} ${shortRefName(ref)} created` };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The manifest: only its top-level `sources` (a list of strings) and `environment` (a map of strings) change;
// every other top-level entry is kept as written.

class ManifestError extends Error {}

interface Block {
  /** The top-level key, or undefined for what precedes the first key (comments, `---`). */
  key: string | undefined;
  /** What follows `key:` on its line. */
  inline: string;
  lines: string[];
}

// A value starts at a non-space: `\s+(.*)$` backtracked over a run of spaces before a line separator.
const TOP_LEVEL_KEY = /^([A-Za-z_][\w.-]*)\s*:(?:\s+(\S.*)?)?$/;

function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [{ key: undefined, inline: '', lines: [] }];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    const m = TOP_LEVEL_KEY.exec(line);
    if (m) {
      blocks.push({ key: m[1]!, inline: m[2] ?? '', lines: [line] });
      continue;
    }
    const current = blocks[blocks.length - 1]!;
    const ignorable = line.trim() === '' || line.trimStart().startsWith('#');
    if (current.key === undefined && !ignorable && line !== '---') throw new ManifestError('not a mapping');
    if (current.key !== undefined && !ignorable && !/^\s|^-(\s|$)/.test(line)) throw new ManifestError(`unexpected line ${line}`);
    current.lines.push(line);
  }
  if (blocks.length === 1) throw new ManifestError('empty manifest');
  return blocks;
}

const SPACE = /\s/;

/**
 * `text` without its trailing `#` comment, as `/\s+#.*$/` (`spaced`) or `/\s*#.*$/` removed it, by scanning: those
 * patterns ran from every `#` to the end of the text, which is quadratic on many of them.
 */
function withoutComment(text: string, spaced: boolean): string {
  // `.*$` does not cross a line terminator: the comment's `#` stands after the last one.
  const after = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'), text.lastIndexOf('\u2028'), text.lastIndexOf('\u2029'));
  let hash = text.indexOf('#', after + 1);
  while (spaced && hash >= 0 && !(hash > 0 && SPACE.test(text[hash - 1]!))) hash = text.indexOf('#', hash + 1);
  if (hash < 0) return text;
  let start = hash;
  while (start > 0 && SPACE.test(text[start - 1]!)) start--;
  return text.slice(0, start);
}

/** One YAML scalar written inline (plain, single- or double-quoted), with a trailing comment dropped. */
function scalar(raw: string): string {
  const s = raw.trim();
  if (s.startsWith('"')) {
    const end = s.lastIndexOf('"');
    try {
      return JSON.parse(s.slice(0, end + 1)) as string;
    } catch {
      throw new ManifestError('bad quoted string');
    }
  }
  if (s.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'/.exec(s);
    if (!m) throw new ManifestError('bad quoted string');
    return m[1]!.replace(/''/g, "'");
  }
  if (/^[|>&*!{[]/.test(s)) throw new ManifestError('unsupported value');
  return withoutComment(s, true);
}

function flowItems(inline: string, open: string, close: string): string[] {
  const s = withoutComment(inline, true).trim();
  if (!s.startsWith(open) || !s.endsWith(close)) throw new ManifestError('unsupported value');
  const inner = s.slice(1, -1).trim();
  return inner === '' ? [] : inner.split(',').map((x) => x.trim());
}

function isNull(inline: string): boolean {
  const s = withoutComment(inline, false).trim();
  return s === '' || s === '~' || s === 'null';
}

function parseSources(block: Block): string[] {
  if (!isNull(block.inline)) return flowItems(block.inline, '[', ']').map(scalar);
  const items: string[] = [];
  for (const line of block.lines.slice(1)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = /^\s*-\s+(\S.*)?$/.exec(line);
    if (!m) throw new ManifestError('sources must be a list of strings');
    items.push(scalar(m[1] ?? ''));
  }
  return items;
}

function parseEnvironment(block: Block): Map<string, string> {
  const env = new Map<string, string>();
  const pair = (entry: string) => {
    // A plain key ends at a non-space and a value starts at one: each `\s*` once had a `[^:#]*?` or `.*` beside it
    // that also took spaces, and the two traded a long run of them back and forth.
    const m = /^\s*("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#\s](?:[^:#]*[^:#\s])?)\s*:(?:\s+(\S.*)?)?$/.exec(entry);
    if (!m) throw new ManifestError('environment must be a map of strings');
    env.set(scalar(m[1]!), m[2] === undefined ? '' : scalar(m[2]));
  };
  if (!isNull(block.inline)) {
    for (const item of flowItems(block.inline, '{', '}')) pair(item);
    return env;
  }
  for (const line of block.lines.slice(1)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    pair(line);
  }
  return env;
}

/** A YAML double-quoted scalar: JSON's string syntax is one. */
function quoted(s: string): string {
  return JSON.stringify(s);
}

export function adjustManifest(text: string, repo: Readonly<Record<string, unknown>>, commit: string, ref: string, submitterUrl: string): string {
  const blocks = splitBlocks(text);
  const sourcesBlock = blocks.find((b) => b.key === 'sources');
  const envBlock = blocks.find((b) => b.key === 'environment');
  const sources = sourcesBlock ? parseSources(sourcesBlock) : [];
  const env = envBlock ? parseEnvironment(envBlock) : new Map<string, string>();
  env.set('BUILD_SUBMITTER', 'forgejo');
  env.set('BUILD_SUBMITTER_URL', submitterUrl);
  env.set('GIT_REF', ref);

  const cloneUrl = str(repo, 'clone_url');
  const sshUrl = str(repo, 'ssh_url');
  const at = sources.findIndex((s) => s === cloneUrl || s === sshUrl);
  if (at >= 0) sources[at] = `${sources[at]}#${commit}`;
  // A private repository is fetched over SSH, where the build's key can reach it.
  else sources.push(`${bool(repo, 'private') ? sshUrl : cloneUrl}#${commit}`);

  const sourcesText = ['sources:', ...sources.map((s) => `  - ${quoted(s)}`)];
  const envText = ['environment:', ...[...env].map(([k, v]) => `  ${quoted(k)}: ${quoted(v)}`)];
  const out: string[] = [];
  for (const block of blocks) {
    if (block.key === 'sources') out.push(...sourcesText);
    else if (block.key === 'environment') out.push(...envText);
    else out.push(...block.lines);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  if (!sourcesBlock) out.push(...sourcesText);
  if (!envBlock) out.push(...envText);
  return `${out.join('\n')}\n`;
}

/** The site's URL: the repository's page without its `owner/name`. */
function siteUrl(repo: Readonly<Record<string, unknown>>): string {
  const html = str(repo, 'html_url');
  const fullName = str(repo, 'full_name');
  return html.endsWith(`/${fullName}`) ? html.slice(0, html.length - fullName.length) : html;
}

function errorBody(message: string): string {
  return goJson({
    error: message,
    variables: { manifest: '', tags: null, note: '', secrets: false, execute: false, visibility: '' },
  });
}

export const SOURCEHUT_BUILDS_FORMATTER: HookFormatter = {
  parseConfig(config) {
    const manifestPath = config.manifest_path;
    if (manifestPath === undefined || manifestPath === '') throw new ValidationError('', 'Missing config option: manifest_path');
    if (!isValidPath(manifestPath)) throw new ValidationError('', 'Invalid manifest_path');
    const visibility = config.visibility === undefined || config.visibility === '' ? 'PRIVATE' : config.visibility;
    if (!VISIBILITIES.has(visibility)) throw new ValidationError('', 'Invalid visibility: must be PUBLIC, UNLISTED or PRIVATE');
    const secrets = BOOLEANS.get((config.secrets ?? '').toLowerCase());
    if (secrets === undefined) throw new ValidationError('', 'Invalid secrets: must be true or false');
    const meta: BuildsMeta = { manifest_path: manifestPath, visibility, secrets };
    return { ...meta };
  },
  filesWanted(event, payload, meta) {
    const t = target(event, payload);
    const path = metaOf(meta).manifest_path;
    return t && path !== '' ? { commit: t.commit, paths: [path] } : undefined;
  },
  format(event, payload, hook: FormattedHook) {
    const t = target(event, payload);
    if (!t) return undefined;
    const meta = metaOf(hook.meta);
    const repo = repoOf(payload);
    const fullName = str(repo, 'full_name');
    const manifestText = hook.files?.[meta.manifest_path];
    if (manifestText === undefined) {
      return { contentType: 'application/json', body: errorBody(`${fullName}:${t.ref} could not open manifest ${JSON.stringify(meta.manifest_path)}`) };
    }
    let manifest: string;
    try {
      manifest = adjustManifest(manifestText, repo, t.commit, t.ref, siteUrl(repo));
    } catch {
      return { contentType: 'application/json', body: errorBody(`${fullName}:${t.ref} could not decode manifest ${JSON.stringify(meta.manifest_path)}`) };
    }
    const body = {
      query: SUBMIT_MUTATION,
      variables: {
        manifest,
        tags: [fullName, `${t.refType}/${shortRefName(t.ref)}`, meta.manifest_path],
        note: t.note,
        secrets: meta.secrets,
        execute: true,
        visibility: meta.visibility || 'PRIVATE',
      },
    };
    return { contentType: 'application/json', body: goJson(body) };
  },
};
