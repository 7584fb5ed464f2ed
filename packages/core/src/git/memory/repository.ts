/**
 * One in-memory repository: a bare git folder on the backend's own memfs, read and written through isomorphic-git
 * (loose objects, packs, refs), with revisions resolved here as git resolves the forms core uses.
 */
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { FULL_HEX_ID, type GitObjectType } from '../backend.js';
import type { BoundedMap } from '../../bounded-map.js';
import { trimEnd } from '../../text.js';
import { hasLineTerminator } from '../ident.js';
import type { MemoryFs, MemoryLibs } from './libs.js';
import { isObjectType, parseCommit, parseTag, parseTree, type ParsedCommit, type RawObject, type TreeItem } from './objects.js';

export const ZERO_ID = '0'.repeat(40);

/** The places git looks a short name up, in its order (`git rev-parse` DWIM rules). */
const DWIM = ['%s', 'refs/%s', 'refs/tags/%s', 'refs/heads/%s', 'refs/remotes/%s', 'refs/remotes/%s/HEAD'];

/** A ref name as git accepts it (`git check-ref-format`), checked before it becomes a path on the file system. */
export function isValidRefName(ref: string): boolean {
  if (ref === 'HEAD') return true;
  if (!ref.startsWith('refs/') || ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|\/\/|@\{|\/\./.test(ref)) return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.'));
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}

/** True for isomorphic-git's "not there" errors. */
function isNotFound(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'NotFoundError' || code === 'ENOENT' || code === 'AmbiguousError';
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/**
 * Where the suffixes of a revision (`^{type}`, `^N`, `~N`, repeated) start: the earliest index from which the rest is
 * nothing but suffixes, as `/^(.*?)((?:\^\{[a-z]*\}|\^\d*|~\d*)*)$/` splits it; undefined when that pattern does
 * not match (a line terminator in the name). A scan from the end: the pattern retried every start over a long run
 * of `~` that ends in something else, which is quadratic.
 */
export function revisionSuffixStart(revision: string): number | undefined {
  const length = revision.length;
  // ok[i]: the text from i on is all suffixes. A suffix at i ends at one place only (a digit or `{` after it
  // cannot start the next one), so each is read once.
  const ok = new Uint8Array(length + 1);
  ok[length] = 1;
  let first = length;
  for (let i = length - 1; i >= 0; i--) {
    const char = revision[i];
    if (char !== '^' && char !== '~') continue;
    let end = i + 1;
    if (char === '^' && revision[end] === '{') {
      let close = end + 1;
      while (close < length && revision[close]! >= 'a' && revision[close]! <= 'z') close++;
      if (revision[close] === '}') end = close + 1;
    } else {
      while (isDigit(revision[end])) end++;
    }
    if (ok[end]) {
      ok[i] = 1;
      first = i;
    }
  }
  return hasLineTerminator(revision.slice(0, first)) ? undefined : first;
}

export class MemoryRepository {
  constructor(
    private readonly libs: MemoryLibs,
    readonly fs: MemoryFs,
    readonly gitdir: string,
    /** isomorphic-git's pack cache: one per backend. */
    private readonly cache: object,
    /** Commits and trees already read, by `<gitdir>\0<id>` (objects never change): one per backend. */
    private readonly objects: BoundedMap<string, RawObject>,
  ) {}

  private loosePath(id: string): string {
    return `${this.gitdir}/objects/${id.slice(0, 2)}/${id.slice(2)}`;
  }

  private get base() {
    return { fs: this.fs.client, gitdir: this.gitdir };
  }

  /**
   * Loose objects are read here at once (memfs answers synchronously, zlib inflates in this thread); objects in
   * packs go through isomorphic-git.
   */
  async read(id: string): Promise<RawObject | undefined> {
    if (!FULL_HEX_ID.test(id)) return undefined;
    const cacheKey = `${this.gitdir}\0${id}`;
    const cached = this.objects.get(cacheKey);
    if (cached) return cached;
    const file = this.readLoose(id);
    if (file) {
      const wrapped = inflateSync(file);
      const space = wrapped.indexOf(0x20);
      const nul = wrapped.indexOf(0, space);
      const type = wrapped.toString('latin1', 0, space);
      if (space < 0 || nul < 0 || !isObjectType(type)) throw new Error(`corrupt loose object ${id}`);
      const content = wrapped.subarray(nul + 1);
      if (type !== 'commit' && type !== 'tree') return { type, content };
      // Copied: zlib's output sits in a far larger buffer, which the cache would otherwise keep whole.
      const object: RawObject = { type, content: Buffer.from(content) };
      this.objects.set(cacheKey, object);
      return object;
    }
    try {
      const found = await this.libs.git.readObject({ ...this.base, oid: id, format: 'content', cache: this.cache });
      if (!isObjectType(found.type) || !(found.object instanceof Uint8Array)) return undefined;
      return { type: found.type, content: Buffer.from(found.object.buffer, found.object.byteOffset, found.object.byteLength) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** A loose object's file; one call to memfs (each costs its permission checks), an exception only when absent. */
  private readLoose(id: string): Buffer | undefined {
    try {
      return this.fs.sync.readFileSync(this.loosePath(id));
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  /** True when the object is stored, without reading it (loose objects are all there is once a push is unpacked). */
  async has(id: string): Promise<boolean> {
    if (!FULL_HEX_ID.test(id)) return false;
    if (this.objects.has(`${this.gitdir}\0${id}`) || this.fs.sync.existsSync(this.loosePath(id))) return true;
    return (await this.read(id)) !== undefined;
  }

  /** Writes a loose object as git does (zlib over `<type> <size>\0<content>`, named by its SHA-1), unless present. */
  async write(type: GitObjectType, content: Buffer): Promise<string> {
    const wrapped = Buffer.concat([Buffer.from(`${type} ${content.length}\0`, 'latin1'), content]);
    const id = createHash('sha1').update(wrapped).digest('hex');
    const loose = this.loosePath(id);
    if (!this.fs.sync.existsSync(loose)) {
      this.fs.sync.mkdirSync(loose.slice(0, loose.lastIndexOf('/')), { recursive: true });
      // Copied for the same reason: a small object's file would hold zlib's whole output chunk. Level 1: these
      // bytes never leave memory, and zlib is most of what a push costs here.
      this.fs.sync.writeFileSync(loose, Buffer.from(deflateSync(wrapped, { level: 1 })));
    }
    return id;
  }

  async commit(id: string): Promise<ParsedCommit | undefined> {
    const found = await this.read(id);
    return found?.type === 'commit' ? parseCommit(found.content) : undefined;
  }

  async tree(id: string): Promise<TreeItem[] | undefined> {
    const found = await this.read(id);
    return found?.type === 'tree' ? parseTree(found.content) : undefined;
  }

  /** The id a full ref name holds (symbolic refs followed), or undefined. */
  async resolveRef(ref: string): Promise<string | undefined> {
    if (!isValidRefName(ref)) return undefined;
    try {
      const id = await this.libs.git.resolveRef({ ...this.base, ref });
      return FULL_HEX_ID.test(id) ? id : undefined;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Every ref under `refs/` with its id, sorted by name. */
  async refs(): Promise<{ ref: string; id: string }[]> {
    let names: string[];
    try {
      names = await this.libs.git.listRefs({ ...this.base, filepath: 'refs' });
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    const found: { ref: string; id: string }[] = [];
    for (const name of names) {
      const ref = `refs/${name}`;
      const id = await this.resolveRef(ref);
      if (id) found.push({ ref, id });
    }
    return found.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  }

  /** True when another ref is a folder of this one or this one's folder: git refuses `a` beside `a/b`. */
  async clashes(ref: string, ignoring: ReadonlySet<string> = new Set()): Promise<boolean> {
    for (const { ref: other } of await this.refs()) {
      if (!ignoring.has(other) && (other.startsWith(`${ref}/`) || ref.startsWith(`${other}/`))) return true;
    }
    return false;
  }

  /** Points `ref` at `id`. Callers check `clashes` first; a folder a deleted ref left empty goes here. */
  async writeRef(ref: string, id: string): Promise<void> {
    const path = `${this.gitdir}/${ref}`;
    if (this.fs.sync.existsSync(path) && (await this.fs.promises.stat(path)).isDirectory()) {
      if (await this.clashes(ref)) throw new Error(`ref ${ref} clashes with another ref`);
      await this.fs.promises.rm(path, { recursive: true, force: true });
    }
    await this.libs.git.writeRef({ ...this.base, ref, value: id, force: true });
  }

  async deleteRef(ref: string): Promise<void> {
    await this.libs.git.deleteRef({ ...this.base, ref });
  }

  /** The branch HEAD names (`main`), whether or not it exists. */
  async headBranch(): Promise<string> {
    try {
      const head = (await this.fs.promises.readFile(`${this.gitdir}/HEAD`)).toString('utf8').trim();
      return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : '';
    } catch {
      return '';
    }
  }

  async setHead(branch: string): Promise<void> {
    await this.fs.promises.writeFile(`${this.gitdir}/HEAD`, `ref: refs/heads/${branch}\n`);
  }

  /** Follows tags to the first object that is not one. */
  async peel(id: string): Promise<{ id: string; object: RawObject } | undefined> {
    let current = id;
    for (let depth = 0; depth < 16; depth++) {
      const object = await this.read(current);
      if (!object) return undefined;
      if (object.type !== 'tag') return { id: current, object };
      current = parseTag(object.content).object;
    }
    return undefined;
  }

  /** Peels to an object of `type` (a commit's tree for `tree`), as `^{type}` does. */
  async peelTo(id: string, type: GitObjectType): Promise<{ id: string; object: RawObject } | undefined> {
    if (type === 'tag') {
      const object = await this.read(id);
      return object?.type === 'tag' ? { id, object } : undefined;
    }
    const peeled = await this.peel(id);
    if (!peeled) return undefined;
    if (peeled.object.type === type) return peeled;
    if (type === 'tree' && peeled.object.type === 'commit') {
      const tree = parseCommit(peeled.object.content).tree;
      const object = await this.read(tree);
      return object ? { id: tree, object } : undefined;
    }
    return undefined;
  }

  /** The entry at a slash-separated path of a tree ('' is the tree itself). */
  async entryAt(tree: string, path: string): Promise<TreeItem | undefined> {
    if (path === '') return { mode: '040000', name: '', id: tree };
    let current = tree;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const item = (await this.tree(current))?.find((e) => e.name === parts[i]);
      if (!item) return undefined;
      if (i === parts.length - 1) return item;
      if (item.mode !== '040000') return undefined;
      current = item.id;
    }
    return undefined;
  }

  /** A name as git looks it up: a full id, a ref (DWIM rules), or an abbreviated id. */
  private async resolveName(name: string): Promise<string | undefined> {
    if (FULL_HEX_ID.test(name)) return (await this.read(name)) ? name : undefined;
    if (name === '') return undefined;
    for (const rule of DWIM) {
      const id = await this.resolveRef(rule.replace('%s', name));
      if (id) return id;
    }
    if (/^[0-9a-f]{4,39}$/.test(name)) {
      try {
        return await this.libs.git.expandOid({ ...this.base, oid: name, cache: this.cache });
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    }
    return undefined;
  }

  /**
   * The object a revision names: `name`, then any of `^{type}`, `^{}`, `^`, `^N`, `~N`, then `:path`. Forms git
   * knows but core never sends (`@{…}`, `:/text`) name nothing here.
   */
  async resolve(revision: string): Promise<{ id: string; object: RawObject } | undefined> {
    const colon = revision.indexOf(':');
    if (colon >= 0) {
      if (colon === 0) return undefined;
      const tree = await this.resolve(`${revision.slice(0, colon)}^{tree}`);
      if (!tree) return undefined;
      const path = trimEnd(revision.slice(colon + 1), '/');
      const item = await this.entryAt(tree.id, path);
      if (!item || item.mode === '160000') return undefined;
      const object = item.id === tree.id ? tree.object : await this.read(item.id);
      return object ? { id: item.id, object } : undefined;
    }
    const split = revisionSuffixStart(revision);
    if (split === undefined) return undefined;
    const name = revision.slice(0, split);
    const suffixes = revision.slice(split);
    const named = await this.resolveName(name);
    if (!named) return undefined;
    let id: string = named;
    let current: RawObject | undefined = await this.read(id);
    for (const suffix of suffixes.match(/\^\{[a-z]*\}|\^\d*|~\d*/g) ?? []) {
      if (!current) return undefined;
      if (suffix.startsWith('^{')) {
        const type = suffix.slice(2, -1);
        const peeled: { id: string; object: RawObject } | undefined = type === '' ? await this.peel(id) : isObjectType(type) ? await this.peelTo(id, type) : undefined;
        if (!peeled) return undefined;
        ({ id, object: current } = peeled);
        continue;
      }
      const count = suffix.length > 1 ? Number(suffix.slice(1)) : 1;
      const steps = suffix.startsWith('~') ? count : 1;
      const parentIndex = suffix.startsWith('^') ? count : 1;
      for (let step = 0; step < steps; step++) {
        const commit = await this.peelTo(id, 'commit');
        if (!commit) return undefined;
        if (parentIndex === 0) {
          id = commit.id;
          break;
        }
        const parent = parseCommit(commit.object.content).parents[parentIndex - 1];
        if (!parent) return undefined;
        id = parent;
      }
      current = await this.read(id);
    }
    return current ? { id, object: current } : undefined;
  }
}
