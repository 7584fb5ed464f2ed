/**
 * git against remote repositories: reading a remote's HEAD and fetching from it, for migrations and pull mirrors.
 * Every run is bounded by the caller's time and signal (the process is killed then), keeps only the tail of git's
 * messages, and gets its address, credentials and safety settings from the caller (see `remote/remote.ts`).
 */
import type { NativeGitRunner } from './native-runner.js';
import type { RepoKey } from './backend.js';
import { RemoteGitError, type FetchRemoteOptions, type RemoteGitAccess, type RemoteHead } from './remote-types.js';

/** Bytes of git's stderr (and of ls-remote's answer) kept: enough for the messages that explain a failure. */
const MAX_STDERR_BYTES = 16 * 1024;
const MAX_LS_REMOTE_BYTES = 64 * 1024;

/** git's progress lines: `Receiving objects:  42% (420/1000)`. */
const PROGRESS = /^(?:remote: )?([A-Za-z ]+):\s+\d+% \((\d+)\/(\d+)\)/;

interface RemoteRun {
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs git with the remote's options, killing it when the time runs out or the signal aborts. Rejects with
 * RemoteGitError carrying git's last words when it fails.
 */
function runRemote(
  git: NativeGitRunner,
  prefix: readonly string[],
  command: readonly string[],
  remote: RemoteGitAccess,
  options: { maxStdout: number; onStderrLine?: (line: string) => void },
): Promise<RemoteRun> {
  return new Promise<RemoteRun>((resolve, reject) => {
    if (remote.signal?.aborted) {
      reject(new RemoteGitError('fatal: the operation was cancelled', 'aborted'));
      return;
    }
    const child = git.spawnGit([...prefix, ...remote.args, ...command], { ...remote.env });
    const out: Buffer[] = [];
    let outBytes = 0;
    let errTail = '';
    let partial = '';
    let stopped: RemoteGitError | undefined;
    const stop = (error: RemoteGitError) => {
      if (stopped) return;
      stopped = error;
      child.kill('SIGKILL');
    };
    const seconds = Math.max(1, Math.round(remote.timeoutMs / 1000));
    const timer = setTimeout(() => stop(new RemoteGitError(`fatal: the remote did not finish within ${seconds} seconds`, 'timeout')), remote.timeoutMs);
    const onAbort = () => stop(new RemoteGitError('fatal: the operation was cancelled', 'aborted'));
    remote.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (outBytes < options.maxStdout) out.push(chunk.subarray(0, options.maxStdout - outBytes));
      outBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      errTail = (errTail + text).slice(-MAX_STDERR_BYTES);
      if (!options.onStderrLine) return;
      // Progress is rewritten in place with carriage returns; each piece is a line for us.
      const pieces = (partial + text).split(/[\r\n]/);
      partial = pieces.pop() ?? '';
      if (partial.length > 4096) partial = '';
      for (const piece of pieces) if (piece) options.onStderrLine(piece);
    });
    child.stdin.on('error', () => {});
    child.stdin.end();
    child.on('error', (error) => stop(new RemoteGitError(`fatal: ${error.message}`, 'failed')));
    child.on('close', (code) => {
      clearTimeout(timer);
      remote.signal?.removeEventListener('abort', onAbort);
      if (stopped) {
        reject(stopped);
        return;
      }
      if (code !== 0) {
        reject(new RemoteGitError(lastWords(errTail) || `fatal: git exited with code ${code}`, 'failed'));
        return;
      }
      resolve({ stdout: Buffer.concat(out), stderr: errTail });
    });
  });
}

/** The lines of git's stderr that say what went wrong (`fatal:`, `error:`, `remote:` ones), else its last line. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !PROGRESS.test(l));
  const telling = lines.filter((l) => /^(fatal|error|remote):/.test(l));
  return (telling.length > 0 ? telling.slice(-3) : lines.slice(-1)).join('\n');
}

/** `git ls-remote --symref <url> HEAD`: the branch HEAD names and the object format of the ids listed. */
export async function readRemoteHead(git: NativeGitRunner, remote: RemoteGitAccess): Promise<RemoteHead> {
  // Run from `/`: outside any repository, whose configuration must not apply.
  const { stdout } = await runRemote(git, ['-C', '/'], ['ls-remote', '--symref', '--', remote.url, 'HEAD'], remote, { maxStdout: MAX_LS_REMOTE_BYTES });
  let headBranch: string | undefined;
  let objectFormat: RemoteHead['objectFormat'] = 'sha1';
  for (const line of stdout.toString('utf8').split('\n')) {
    const symref = /^ref: refs\/heads\/(\S+)\tHEAD$/.exec(line);
    if (symref) headBranch = symref[1];
    const id = /^([0-9a-f]+)\t/.exec(line)?.[1];
    if (id?.length === 64) objectFormat = 'sha256';
  }
  return { objectFormat, headBranch };
}

/**
 * `git fetch` from the remote into the repository with the given refspecs (and `--prune`), reporting git's
 * progress. Writes no FETCH_HEAD and keeps no remote configuration: the address lives in the database.
 */
export async function fetchFromRemote(git: NativeGitRunner, key: RepoKey, remote: RemoteGitAccess, options: FetchRemoteOptions): Promise<void> {
  const command = ['fetch', '--progress', '--no-write-fetch-head', '--no-recurse-submodules', '--no-tags'];
  if (options.prune) command.push('--prune');
  command.push('--', remote.url, ...options.refspecs);
  const onProgress = options.onProgress;
  await runRemote(git, ['--git-dir', git.pathOf(key), '-c', 'gc.auto=0'], command, remote, {
    maxStdout: 0,
    onStderrLine: onProgress
      ? (line) => {
          const match = PROGRESS.exec(line);
          if (match) onProgress(match[1]!.trim(), Number(match[2]), Number(match[3]));
        }
      : undefined,
  });
}
