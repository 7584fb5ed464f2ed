/** What a push mirror's push needs of the git backend (`GitBackend.pushMirror`). */
export interface MirrorPushRequest {
  /** The remote's address, without credentials. */
  url: string;
  /** git `-c` arguments placed before the command (address pinning, redirects off, credential helper). */
  config: readonly string[];
  /** Environment for git (what the credential helper answers with); never put on the command line. */
  env: Readonly<Record<string, string>>;
  /** The branches to push (forced, remote ones left alone); absent: every branch, deleting there what is gone here. */
  branches?: (name: string) => boolean;
  /** The push is killed after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
}
