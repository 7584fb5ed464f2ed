import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The key generator the SSH library provides (loaded with it, lazily). */
export type GenerateKeyPair = () => { private: string; public: string };

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * The server's host keys: every file of `files` that exists. When none does (first start), an ed25519 key is
 * generated at the first path, with its `.pub` beside it, and kept, so clients see the same host key after a
 * restart. The file is written aside and linked into place, so two processes starting at once keep one key.
 */
export async function loadHostKeys(files: readonly string[], generate: GenerateKeyPair): Promise<Buffer[]> {
  if (files.length === 0) throw new Error('[server] SSH_SERVER_HOST_KEYS names no file');
  const keys: Buffer[] = [];
  for (const file of files) {
    try {
      keys.push(await readFile(file));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  if (keys.length > 0) return keys;

  const file = files[0]!;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const pair = generate();
  const scratch = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(scratch, pair.private, { mode: 0o600, flag: 'wx' });
  try {
    await link(scratch, file);
    await writeFile(`${file}.pub`, `${pair.public}\n`, { mode: 0o600 });
  } catch (error) {
    // Another process wrote its key first: use that one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(scratch).catch(() => undefined);
  }
  return [await readFile(file)];
}
