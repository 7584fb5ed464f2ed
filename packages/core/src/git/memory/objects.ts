/**
 * Git's object formats, written and read here rather than through isomorphic-git's models: the memory backend then
 * records exactly what git would (time zones, messages as given, tree order) and reads back every header git may
 * write (signatures, encodings), so ids agree with the native backend's for the same input.
 */
import type { GitObjectType } from '../backend.js';
import { hasLineTerminator, identTail } from '../ident.js';

export interface RawObject {
  type: GitObjectType;
  content: Buffer;
}

/** A signature line's parts: `Name <email> 1700000000 +0200`. */
export interface Identity {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  seconds: number;
  /** `+0200`, as written. */
  offset: string;
}

export interface ParsedCommit {
  tree: string;
  parents: string[];
  author: Identity;
  committer: Identity;
  /** The raw message, after the blank line that ends the headers. */
  message: string;
}

export interface ParsedTag {
  object: string;
  type: GitObjectType;
  tag: string;
  tagger?: Identity;
  message: string;
}

export interface TreeItem {
  /** Six octal digits: `100644`, `100755`, `120000`, `040000`, `160000`. */
  mode: string;
  name: string;
  id: string;
}

const OBJECT_TYPES: ReadonlySet<string> = new Set(['blob', 'tree', 'commit', 'tag']);

export function isObjectType(value: string): value is GitObjectType {
  return OBJECT_TYPES.has(value);
}

/** `Name <email> seconds ±hhmm`: the name up to the last ` <` before the tail's `>` (a scan: users push these lines). */
function parseIdentity(line: string): Identity {
  const tail = identTail(line, true);
  const open = tail && tail.close >= 2 ? line.lastIndexOf(' <', tail.close - 2) : -1;
  if (!tail || open < 0 || hasLineTerminator(line.slice(0, tail.close))) return { name: line, email: '', seconds: 0, offset: '+0000' };
  return { name: line.slice(0, open), email: line.slice(open + 2, tail.close), seconds: Number(tail.seconds), offset: tail.offset };
}

/** A name or email as a signature line may hold it (git strips these too). */
function identityPart(value: string): string {
  return value.replace(/[<>\n\r\0]/g, '').trim();
}

export function formatIdentity(identity: Identity): string {
  return `${identityPart(identity.name)} <${identityPart(identity.email)}> ${identity.seconds} ${identity.offset}`;
}

/** A signature given as name, email, a time (now when absent) and an offset (`+0000` when absent or malformed). */
export function identityOf(signature: { name: string; email: string; when?: Date; offset?: string }, now: Date): Identity {
  const offset = signature.offset && /^[+-]\d{4}$/.test(signature.offset) ? signature.offset : '+0000';
  return { name: signature.name, email: signature.email, seconds: Math.floor((signature.when ?? now).getTime() / 1000), offset };
}

/** Strict ISO 8601 in the identity's own offset, as git's `%aI` writes it (`2023-11-14T22:13:20+02:00`). */
export function isoStrict(identity: Identity): string {
  const sign = identity.offset.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(identity.offset.slice(1, 3)) * 60 + Number(identity.offset.slice(3, 5)));
  const local = new Date((identity.seconds + minutes * 60) * 1000).toISOString().slice(0, 19);
  return `${local}${identity.offset.slice(0, 3)}:${identity.offset.slice(3, 5)}`;
}

/** Headers up to the first blank line, then the message. Continuation lines (a leading space) join their header. */
function splitHeaders(content: Buffer): { headers: [string, string][]; message: string } {
  const text = content.toString('utf8');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const message = end < 0 ? '' : text.slice(end + 2);
  const headers: [string, string][] = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length > 0) {
      headers[headers.length - 1]![1] += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(' ');
    if (space > 0) headers.push([line.slice(0, space), line.slice(space + 1)]);
  }
  return { headers, message };
}

export function parseCommit(content: Buffer): ParsedCommit {
  const { headers, message } = splitHeaders(content);
  const commit: ParsedCommit = {
    tree: '',
    parents: [],
    author: { name: '', email: '', seconds: 0, offset: '+0000' },
    committer: { name: '', email: '', seconds: 0, offset: '+0000' },
    message,
  };
  for (const [name, value] of headers) {
    if (name === 'tree') commit.tree = value;
    else if (name === 'parent') commit.parents.push(value);
    else if (name === 'author') commit.author = parseIdentity(value);
    else if (name === 'committer') commit.committer = parseIdentity(value);
  }
  return commit;
}

export function serializeCommit(commit: ParsedCommit): Buffer {
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((p) => `parent ${p}`), `author ${formatIdentity(commit.author)}`, `committer ${formatIdentity(commit.committer)}`];
  return Buffer.from(`${lines.join('\n')}\n\n${commit.message}`, 'utf8');
}

export function parseTag(content: Buffer): ParsedTag {
  const { headers, message } = splitHeaders(content);
  const tag: ParsedTag = { object: '', type: 'commit', tag: '', message };
  for (const [name, value] of headers) {
    if (name === 'object') tag.object = value;
    else if (name === 'type' && isObjectType(value)) tag.type = value;
    else if (name === 'tag') tag.tag = value;
    else if (name === 'tagger') tag.tagger = parseIdentity(value);
  }
  return tag;
}

export function serializeTag(tag: ParsedTag & { tagger: Identity }): Buffer {
  return Buffer.from(`object ${tag.object}\ntype ${tag.type}\ntag ${tag.tag}\ntagger ${formatIdentity(tag.tagger)}\n\n${tag.message}`, 'utf8');
}

/** Entries of a raw tree object: `<mode> <name>\0<binary id>` each; modes padded to six digits. */
export function parseTree(content: Buffer, idBytes = 20): TreeItem[] {
  const items: TreeItem[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > content.length) break;
    items.push({
      mode: content.toString('latin1', at, space).padStart(6, '0'),
      name: content.toString('utf8', space + 1, nul),
      id: content.toString('hex', nul + 1, nul + 1 + idBytes),
    });
    at = nul + 1 + idBytes;
  }
  return items;
}

/** Git's tree order: by name, a folder compared as if its name ended with `/`. */
function sortKey(item: TreeItem): Buffer {
  return Buffer.from(item.mode === '040000' ? `${item.name}/` : item.name, 'utf8');
}

export function serializeTree(items: readonly TreeItem[]): Buffer {
  const sorted = [...items].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  const parts: Buffer[] = [];
  for (const item of sorted) {
    // Git writes a folder's mode without its leading zero.
    const mode = item.mode === '040000' ? '40000' : item.mode;
    parts.push(Buffer.from(`${mode} ${item.name}\0`, 'utf8'), Buffer.from(item.id, 'hex'));
  }
  return Buffer.concat(parts);
}


export function treeEntryType(mode: string): 'blob' | 'tree' | 'commit' {
  if (mode === '040000') return 'tree';
  if (mode === '160000') return 'commit';
  return 'blob';
}
