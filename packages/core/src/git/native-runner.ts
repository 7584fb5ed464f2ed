import type { RepoKey } from './backend.js';
import type { GitProcess } from './native-spawner.js';

/**
 * What the native backend's own modules (`git/native-*.ts`) use of NativeGitBackend: declared here rather than
 * imported from native.ts, so that native.ts importing those modules makes no import circle.
 */
export interface NativeGitRunner {
  /** Starts git, tied to the server's life. */
  spawnGit(args: string[], env?: Record<string, string>): GitProcess;
  /** Runs git to the end, collecting its output. */
  run(args: string[], options?: { input?: Buffer | string; env?: Record<string, string> }): Promise<{ stdout: Buffer; stderr: string; code: number }>;
  /** The repository's folder. */
  pathOf(key: RepoKey): string;
}
