import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ListedRef, ListedRefs } from './types.js';
import type { RepoKey } from './backend.js';
import type { NativeGitRunner } from './native-runner.js';
import { StampedRefReads } from './native-refs.js';

/** Listings with more refs than this are not answered here (git answers those requests itself). */
const MAX_LISTED_REFS = 10_000;
/** RepoHost's own bookkeeping refs, hidden from clients (transfer.hideRefs=refs/repohost, as git matches it). */
const HIDDEN = 'refs/repohost';

const FORMAT = ['%(refname)', '%(objectname)', '%(*objectname)', '%(*objecttype)', '%(symref)'].join('%00');

/**
 * Every ref under refs/ for `ls-refs` (see ls-refs.ts), read by one `git for-each-ref` and kept per repository
 * while the refs on disk keep the same stamp (native-refs.ts `StampedRefReads`, checked at every read, so a push by
 * any process shows at once). Undefined whenever the answer could differ from git's: another ref backend, a HEAD
 * that is not a symbolic ref, broken refs, tags of tags, or too many refs; the caller then lets git answer.
 */
export class TransferRefListings {
  private readonly reads = new StampedRefReads<ListedRef[] | undefined>();

  async listing(git: NativeGitRunner, key: RepoKey): Promise<ListedRefs | undefined> {
    const dir = git.pathOf(key);
    const head = symbolicHead(dir);
    if (head === undefined) return undefined;
    const refs = await this.reads.read(dir, dir, 'refs/', () => readRefs(git, dir), (value) => value !== undefined);
    return refs && { head, refs };
  }
}

/** The ref HEAD names, or undefined when HEAD is detached, missing or unreadable. */
function symbolicHead(dir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'HEAD'), 'latin1');
  } catch {
    return undefined;
  }
  if (!text.startsWith('ref: ') || !text.endsWith('\n')) return undefined;
  const target = text.slice(5, -1);
  return target.startsWith('refs/') && !/[\s\0]/.test(target) ? target : undefined;
}

async function readRefs(git: NativeGitRunner, dir: string): Promise<ListedRef[] | undefined> {
  const result = await git.run(['--git-dir', dir, 'for-each-ref', `--format=${FORMAT}`, 'refs/']);
  // git warns of broken refs (and skips them) on stderr: git's own answer may then differ in ways not known here.
  if (result.code !== 0 || result.stderr.trim() !== '') return undefined;
  const refs: ListedRef[] = [];
  for (const line of result.stdout.toString('latin1').split('\n')) {
    if (line === '') continue;
    const [name, id, peeled, peeledType, symref] = line.split('\0');
    if (!name || !id || symref === undefined) return undefined;
    if (name === HIDDEN || name.startsWith(`${HIDDEN}/`)) continue;
    // git's ls-refs peels to the end; a tag of a tag needs more than for-each-ref's one step.
    if (peeledType === 'tag') return undefined;
    const ref: ListedRef = { name, id };
    if (symref !== '') ref.symrefTarget = symref;
    if (peeled) ref.peeled = peeled;
    refs.push(ref);
    if (refs.length > MAX_LISTED_REFS) return undefined;
  }
  // git lists refs in byte order of their names (read as latin1, one character per byte, so < compares bytes).
  return refs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
