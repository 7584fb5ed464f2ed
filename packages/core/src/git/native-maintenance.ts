/**
 * Housekeeping of stored repositories, as Forgejo's cron tasks run it: `git fsck` (repository health check) and
 * `git gc` (garbage collection), each bounded by a time limit and the caller's signal, with its output kept short.
 */
import type { NativeGitRunner } from './native-runner.js';
import type { MaintenanceOptions, MaintenanceResult, RepoKey } from './backend.js';

/** Output kept of a maintenance run (fsck can print a line per broken object). */
const OUTPUT_LIMIT = 8 * 1024;

export function runMaintenance(git: NativeGitRunner, key: RepoKey, command: 'fsck' | 'gc', options: MaintenanceOptions): Promise<MaintenanceResult> {
  // Options only: anything else in ARGS would name objects or paths, which these tasks never take.
  const args = options.args.filter((arg) => arg.startsWith('-'));
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ ok: false, output: 'cancelled' });
      return;
    }
    const child = git.spawnGit(['--git-dir', git.pathOf(key), command, ...args]);
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: Buffer) => {
      if (size < OUTPUT_LIMIT) chunks.push(chunk.subarray(0, OUTPUT_LIMIT - size));
      size += chunk.length;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let stopped: string | undefined;
    const stop = (why: string) => {
      stopped ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(`timed out after ${Math.round(options.timeoutMs / 1000)} s`), Math.max(1, options.timeoutMs));
    const onAbort = () => stop('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (ok: boolean, note?: string) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const output = Buffer.concat(chunks).toString('utf8').trim();
      resolve({ ok, output: [note, output].filter((s) => s).join(': ') });
    };
    child.on('error', (error) => finish(false, error.message));
    child.on('close', (code) => finish(stopped === undefined && code === 0, stopped ?? (code === 0 ? undefined : `exit status ${code ?? -1}`)));
    child.stdin.end();
  });
}
