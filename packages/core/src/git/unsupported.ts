/**
 * What the in-memory git backend (`git/memory/`) cannot do, in one place: each method named here throws
 * `NotSupportedError` (a 501 on HTTP) naming itself. A method added to `GitBackend` that the memory backend does
 * not implement yet goes in this list; the compiler says so (the backend would not implement the interface).
 */
import { NotSupportedError } from '../errors.js';
import type { GitBackend } from './backend.js';

export const MEMORY_UNSUPPORTED = [
  // Streams git writes itself: zip, tar.gz and bundles.
  'archive',
  // Unified diffs and mail patches.
  'commitDiff',
  'diffRange',
  'fileDiffs',
  // Rebasing pull requests.
  'rebaseCommits',
  // Remote git: pushing to push mirrors.
  'pushMirror',
  // Remote git: migrations and pull mirrors.
  'remoteHead',
  'fetchRemote',
  // Housekeeping of repositories on disk: fsck and gc, and the hook files pushes run.
  'maintain',
  'syncHooks',
] as const satisfies readonly (keyof GitBackend)[];

export type MemoryUnsupportedMethod = (typeof MEMORY_UNSUPPORTED)[number];

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
