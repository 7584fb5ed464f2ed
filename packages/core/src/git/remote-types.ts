/**
 * What the git backend needs to reach a remote repository (migrations and pull mirrors): the address and the
 * `git -c …` arguments and environment that `remote/remote.ts` derived from a checked remote. The backend never
 * checks or rewrites the address itself; it only runs git against it, within the time given. Kept apart from
 * backend.ts, which names these types, so that neither file imports the other.
 */
export interface RemoteGitAccess {
  /** The address without credentials (`http(s)://`, `git://`, or `file://` for an allowed local path). */
  url: string;
  /** `-c name=value` pairs placed before the git subcommand. */
  args: readonly string[];
  /** Extra environment for git (credentials travel here, never on the command line). */
  env: Readonly<Record<string, string>>;
  /** The whole operation is stopped after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What a remote repository says of itself before anything is fetched. */
export interface RemoteHead {
  /** Read from the length of the ids the remote lists; sha1 when it lists none (an empty repository). */
  objectFormat: 'sha1' | 'sha256';
  /** The branch the remote's HEAD names, when it says. */
  headBranch?: string;
}

export interface FetchRemoteOptions {
  /** Refspecs, e.g. `+refs/heads/*:refs/heads/*`. */
  refspecs: readonly string[];
  /** Delete local refs the refspecs cover that the remote no longer has. */
  prune: boolean;
  /** git's own progress (counting, receiving, resolving), as it reports it. */
  onProgress?: (phase: string, done: number, total: number) => void;
}

/** A git process that talked to a remote and failed: `message` is git's own words (a `fatal:` line, usually). */
export class RemoteGitError extends Error {
  constructor(
    message: string,
    readonly reason: 'failed' | 'timeout' | 'aborted',
  ) {
    super(message);
    this.name = 'RemoteGitError';
  }
}
