/**
 * Server-side git hooks of one repository, kept where Forgejo keeps them: `hooks/<name>.d/<name>` in the bare
 * repository. They run on a push only when the server allows it (`[security]
 * DISABLE_GIT_HOOKS = false`): then receive-pack's hooks folder is the one `USER_HOOKS` writes, which calls them.
 */
import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { GitHookFile, GitHookName } from './types.js';
import { GIT_HOOK_NAMES } from './types.js';

/** Bytes of a hook file read back; a longer one is cut there. */
const HOOK_READ_LIMIT = 1024 * 1024;

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    const data = await readFile(file);
    return data.subarray(0, HOOK_READ_LIMIT).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

const hookFile = (repoPath: string, name: GitHookName) => path.join(repoPath, 'hooks', `${name}.d`, name);

export async function readRepoHooks(repoPath: string): Promise<GitHookFile[]> {
  return Promise.all(
    GIT_HOOK_NAMES.map(async (name) => {
      const content = await readIfPresent(hookFile(repoPath, name));
      return content === undefined ? { name, active: false, content: '' } : { name, active: true, content };
    }),
  );
}

/** Writes (or, for blank content, removes) one hook; carriage returns go, as Forgejo's do, so `sh` can run it. */
export async function writeRepoHook(repoPath: string, name: GitHookName, content: string): Promise<GitHookFile> {
  const file = hookFile(repoPath, name);
  if (content.trim() === '') {
    await rm(file, { force: true });
    return { name, active: false, content: '' };
  }
  const text = content.replaceAll('\r', '');
  await mkdir(path.dirname(file), { recursive: true });
  // Written aside and renamed: a push running the hook meanwhile sees the old file or the new one, never half.
  const scratch = `${file}.${randomBytes(6).toString('hex')}`;
  await writeFile(scratch, text, { mode: 0o755 });
  await rename(scratch, file);
  return { name, active: true, content: text };
}

/**
 * The hooks folder receive-pack uses when repositories' own hooks may run: after RepoHost's own pre-receive
 * checks, each hook execs the repository's `hooks/<name>.d/<name>` when it is there (git runs hooks in the
 * repository, so relative paths name its files). Only shell builtins when a repository has none.
 */
export const USER_HOOKS: readonly (readonly [string, string])[] = [
  [
    'update',
    `#!/bin/sh
[ -x hooks/update.d/update ] || exit 0
exec hooks/update.d/update "$@"
`,
  ],
  [
    'post-receive',
    `#!/bin/sh
[ -x hooks/post-receive.d/post-receive ] || exit 0
exec hooks/post-receive.d/post-receive
`,
  ],
];
