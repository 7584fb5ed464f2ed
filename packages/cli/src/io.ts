import type { Readable, Writable } from 'node:stream';

/** Where a CLI run reads its environment and writes its output; tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Aborting stops a running `web` command (tests); the binary stops on SIGINT/SIGTERM. */
  signal?: AbortSignal;
  /** Called with the server's URL once `web` listens. */
  onListening?(url: string): void;
  /** Binary standard input and output for `serv` (git's protocol); the process's own when absent. */
  stdinStream?: Readable;
  stdoutStream?: Writable;
}

/** A usage mistake: printed with the command's help, exit code 1. */
export class UsageError extends Error {}
