/**
 * What the in-memory git backend (`git/memory/`) cannot do, in one place: the capabilities it declares only to
 * refuse (`MemoryUnsupported`, marked `Unsupported` on the backend's type) and the list of their methods, each of
 * which throws `NotSupportedError` (a 501 on HTTP) naming itself. A capability added to `GitBackend` goes either in
 * the memory backend's `implements` or here; the compiler says so (the backend would not be a `GitBackend`).
 */
import { NotSupportedError } from '../errors.js';
import type { GitArchive, GitBackend, GitDiffs, GitMaintenance, GitRebase, GitRemote } from './backend.js';

/** The capabilities the memory backend does not provide: by type `Unsupported<MemoryUnsupported>`. */
export type MemoryUnsupported = GitArchive & GitDiffs & GitRebase & GitRemote & GitMaintenance;

export type MemoryUnsupportedMethod = keyof MemoryUnsupported;

export const MEMORY_UNSUPPORTED = [
  // GitArchive: streams git writes itself (zip, tar.gz and bundles).
  'archive',
  // GitDiffs: unified diffs and mail patches, and applying a diff.
  'commitDiff',
  'diffRange',
  'fileDiffs',
  'applyPatch',
  // GitRebase: rebasing pull requests.
  'rebaseCommits',
  // GitRemote: remote git (push mirrors, migrations and pull mirrors).
  'pushMirror',
  'remoteHead',
  'fetchRemote',
  'smallBlobsWithPrefix',
  // GitMaintenance: housekeeping of repositories on disk (fsck and gc) and the hook files pushes run.
  'maintain',
  'syncHooks',
  'readHooks',
  'writeHook',
] as const satisfies readonly MemoryUnsupportedMethod[];

/** Compiles only when `T` is `never`. */
type Nothing<T extends never> = T;
/** The list above names every method of the unsupported capabilities (the compiler names one left out). */
type MemoryUnsupportedListed = Nothing<Exclude<MemoryUnsupportedMethod, (typeof MEMORY_UNSUPPORTED)[number]>>;

/** Methods the memory backend has, but not for every input: what they refuse, with the same error. */
export const MEMORY_PARTIAL = {
  advertiseRefs: 'fetches over protocol v0 and v2; pushes over v0, as git pushes',
  runService: 'stateless (smart HTTP) only, not SSH; fetches without shallow clones or filters; pushes without push options',
  changedFiles: 'no ignoreWhitespace; renames found for unchanged content only',
  mergeTree: 'one merge base only; a conflicted merge gives the conflicting paths and ours\' tree, without conflict markers',
  create: 'sha1 repositories only',
  changeFiles: 'sha1 repositories only',
} as const satisfies Partial<Record<keyof GitBackend, string>>;

/** The error every backend throws for what it cannot do: the method, and what of it when it is partly there. */
export function notSupported(method: keyof GitBackend, what?: string): NotSupportedError {
  return new NotSupportedError(what ? `git ${method} (${what})` : `git ${method}`);
}
