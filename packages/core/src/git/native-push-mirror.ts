/**
 * Push mirrors: `git push` of a repository's branches and tags to a remote, forced, as Forgejo's push mirrors do.
 * Every branch mirrors with pruning (a branch or tag deleted here is deleted there); with a branch filter, the
 * branches it selects are pushed (forced) and tags are mirrored, but remote branches are left alone.
 */
import type { NativeGitRunner } from './native-runner.js';
import type { RepoKey } from './backend.js';
import type { MirrorPushRequest } from './push-mirror-types.js';

/** Of git's answer, what is kept for the error text. */
const MAX_STDERR_BYTES = 16 * 1024;
/** Refspecs on one command line, at most (a filter matching more is refused rather than overflowing argv). */
const MAX_FILTERED_BRANCHES = 5000;

export async function pushMirror(git: NativeGitRunner, key: RepoKey, request: MirrorPushRequest): Promise<void> {
  const gitDir = git.pathOf(key);
  const refspecs: string[] = ['+refs/tags/*:refs/tags/*'];
  const options = ['--force', '--prune', '--porcelain'];
  const matches = request.branches;
  if (!matches) {
    refspecs.unshift('+refs/heads/*:refs/heads/*');
  } else {
    const listed = await git.run(['--git-dir', gitDir, 'for-each-ref', '--format=%(refname:lstrip=2)', 'refs/heads/']);
    if (listed.code !== 0) throw new Error(`git for-each-ref failed (${listed.code}): ${listed.stderr.trim()}`);
    const branches = listed.stdout
      .toString('utf8')
      .split('\n')
      .filter((b) => b !== '' && matches(b));
    if (branches.length > MAX_FILTERED_BRANCHES) throw new Error(`the branch filter matches more than ${MAX_FILTERED_BRANCHES} branches`);
    refspecs.unshift(...branches.map((b) => `+refs/heads/${b}:refs/heads/${b}`));
  }
  await runBounded(git, ['--git-dir', gitDir, ...request.config, 'push', ...options, '--', request.url, ...refspecs], request);
}

/** Runs git within the request's time and signal; rejects with git's own words when it fails. */
function runBounded(git: NativeGitRunner, args: string[], request: MirrorPushRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(new Error('push aborted'));
      return;
    }
    // The server account's own git configuration stays out of it: an `insteadOf` or `pushurl` there would send the
    // push somewhere the address checks never saw.
    const child = git.spawnGit(args, { GIT_CONFIG_GLOBAL: '/dev/null', ...request.env });
    const stderr: Buffer[] = [];
    let kept = 0;
    let stopped: string | undefined;
    const stop = (why: string) => {
      if (stopped) return;
      stopped = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(`timed out after ${Math.round(request.timeoutMs / 1000)} s`), request.timeoutMs);
    const onAbort = () => stop('push aborted');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => {
      if (kept >= MAX_STDERR_BYTES) return;
      const part = chunk.subarray(0, MAX_STDERR_BYTES - kept);
      stderr.push(part);
      kept += part.length;
    });
    child.stdin.on('error', () => {});
    child.stdin.end();
    child.on('error', (error) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (stopped) reject(new Error(`git push: ${stopped}`));
      else if (code === 0) resolve();
      else {
        const text = Buffer.concat(stderr).toString('utf8').trim();
        reject(new Error(`git push failed (${code ?? signal}): ${text}`));
      }
    });
  });
}
