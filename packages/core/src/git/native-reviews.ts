/**
 * What reviews need from git: the diffs of a few paths between two commits, for the hunks line comments quote.
 */
import type { NativeGitRunner } from './native-runner.js';
import { FULL_HEX_ID, type RepoKey } from './backend.js';

const QUOTED_ESCAPES: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v' };

/** A path as a diff header prints it: bare, or C-quoted when it holds special characters. */
function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"')) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(...Buffer.from(QUOTED_ESCAPES[next] ?? next, 'utf8'));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path a file's section of a diff is about: its new name, or its old one when it was deleted. */
function sectionPath(lines: readonly string[]): string | undefined {
  let oldPath: string | undefined;
  for (const line of lines) {
    if (line.startsWith('@@')) break;
    if (line.startsWith('+++ ') && line !== '+++ /dev/null') return unquote(line.slice(4)).replace(/^b\//, '');
    if (line.startsWith('--- ') && line !== '--- /dev/null') oldPath = unquote(line.slice(4)).replace(/^a\//, '');
  }
  return oldPath;
}

/**
 * The unified diff of each of `paths` between two commits (renames followed), from one `git diff`, reading at
 * most `maxBytes` of it: a comment quotes the lines around its own, so a diff past that is cut rather than held.
 */
export async function fileDiffs(git: NativeGitRunner, key: RepoKey, base: string, head: string, paths: readonly string[], maxBytes: number): Promise<Map<string, string>> {
  if (!FULL_HEX_ID.test(base) || !FULL_HEX_ID.test(head)) throw new Error('fileDiffs takes full commit ids');
  const wanted = paths.filter((p) => p !== '' && !p.includes('\0'));
  const result = new Map<string, string>();
  if (wanted.length === 0) return result;
  const child = git.spawnGit(['--literal-pathspecs', '-c', 'core.quotePath=false', '--git-dir', git.pathOf(key), 'diff', '--no-ext-diff', '--no-color', '-M', base, head, '--', ...wanted]);
  child.stdin.end();
  child.stderr.resume();
  const chunks: Buffer[] = [];
  let size = 0;
  const text = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (size >= maxBytes) return;
      chunks.push(chunk);
      size += chunk.length;
      // Enough read: the rest of the diff is not needed.
      if (size >= maxBytes) child.kill();
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0 && size < maxBytes) return reject(new Error(`git diff failed (${code})`));
      resolve(Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'));
    });
  });
  const sections = text.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  for (const section of sections) {
    const path = sectionPath(section.split('\n'));
    if (path !== undefined && wanted.includes(path)) result.set(path, section);
  }
  return result;
}
