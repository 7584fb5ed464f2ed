/**
 * Every small blob of a repository that starts with a given prefix: how LFS finds the pointers a fetched history
 * holds (Forgejo's `SearchPointerBlobs`: `git cat-file --batch-all-objects --batch-check`, then the small blobs'
 * contents). Two git processes, both streamed: the object list is never held, only the matching blobs are.
 */
import type { RepoKey } from './backend.js';
import type { NativeGitRunner } from './native-runner.js';

/** Reads git's stdout line by line (lines are short: an object's type, id and size). */
async function forEachLine(stream: AsyncIterable<Buffer>, onLine: (line: string) => void): Promise<void> {
  let rest = '';
  for await (const chunk of stream) {
    const text = rest + chunk.toString('latin1');
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  }
  if (rest !== '') onLine(rest);
}

function exited(child: { once(event: 'close', listener: (code: number | null) => void): unknown }): Promise<number | null> {
  return new Promise((resolve) => child.once('close', resolve));
}

export async function smallBlobsWithPrefix(git: NativeGitRunner, key: RepoKey, prefix: Buffer, maxSize: number, signal?: AbortSignal): Promise<Buffer[]> {
  const dir = git.pathOf(key);
  const list = git.spawnGit(['--git-dir', dir, 'cat-file', '--batch-all-objects', '--batch-check=%(objecttype) %(objectname) %(objectsize)']);
  const stopList = () => list.kill('SIGKILL');
  signal?.addEventListener('abort', stopList, { once: true });
  list.stdin.end();
  list.stderr.resume();
  const ids: string[] = [];
  const listed = exited(list);
  try {
    await forEachLine(list.stdout, (line) => {
      const [type, id, sizeText] = line.split(' ');
      const size = Number(sizeText);
      if (type === 'blob' && id && size >= prefix.length && size <= maxSize) ids.push(id);
    });
  } finally {
    signal?.removeEventListener('abort', stopList);
  }
  const code = await listed;
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
  if (code !== 0) throw new Error(`git cat-file --batch-all-objects failed (${code})`);
  if (ids.length === 0) return [];

  const read = git.spawnGit(['--git-dir', dir, 'cat-file', '--batch']);
  const stopRead = () => read.kill('SIGKILL');
  signal?.addEventListener('abort', stopRead, { once: true });
  read.stderr.resume();
  read.stdin.on('error', () => {});
  read.stdin.end(`${ids.join('\n')}\n`);
  const found: Buffer[] = [];
  const done = exited(read);
  try {
    // `<id> <type> <size>\n<content>\n` per object, the contents at most maxSize bytes each.
    let pending: Buffer = Buffer.alloc(0);
    for await (const chunk of read.stdout as AsyncIterable<Buffer>) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        const eol = pending.indexOf(0x0a);
        if (eol < 0) break;
        const header = pending.subarray(0, eol).toString('latin1').split(' ');
        if (header[1] === 'missing') {
          pending = pending.subarray(eol + 1);
          continue;
        }
        const size = Number(header[2]);
        if (!Number.isSafeInteger(size) || size < 0) throw new Error('git cat-file --batch: unexpected header');
        if (pending.length < eol + 1 + size + 1) break;
        const content = pending.subarray(eol + 1, eol + 1 + size);
        if (content.subarray(0, prefix.length).equals(prefix)) found.push(Buffer.from(content));
        pending = pending.subarray(eol + 1 + size + 1);
      }
    }
  } finally {
    signal?.removeEventListener('abort', stopRead);
  }
  const readCode = await done;
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
  if (readCode !== 0) throw new Error(`git cat-file --batch failed (${readCode})`);
  return found;
}
