/**
 * The generated `[security] SECRET_KEY` of an installation that configures none.
 *
 * Forgejo's installer writes the key it generates into app.ini. RepoHost keeps it in a file of its own in the data
 * folder instead (`APP_DATA_PATH/secret_key`, mode 0600), as it keeps its SSH host key and OAuth2 signing key:
 * - app.ini is often not RepoHost's to write (mounted read-only in a container, managed by configuration tools,
 *   or absent: every setting may come from `FORGEJO__…` variables), and rewriting it would lose its layout;
 * - every process of the installation (`web`, `admin …`, `serv` run by OpenSSH) finds the key where it finds the
 *   database and repositories, whatever config file or environment it was started with;
 * - a copy of the database alone (a PostgreSQL dump, the SQLite file) holds no key.
 * `loadSettings` reads the file whenever neither SECRET_KEY nor SECRET_KEY_URI is set.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { secretKeyFile, type Settings } from './settings.js';

/** A new random key: 64 characters (48 random bytes), the length of Forgejo's generated keys. */
export function generateSecretKey(): string {
  return randomBytes(48).toString('base64url');
}

/**
 * Writes a new key to the data folder's key file, readable and writable by the server's account only, and sets it
 * in `settings`. The file is written aside and linked into place: two processes starting at once end up with one
 * key, and nobody reads a half-written file. Returns the file's path.
 */
export async function createSecretKeyFile(settings: Settings): Promise<string> {
  const file = secretKeyFile(settings);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const scratch = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(scratch, `${generateSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(scratch, file);
  } catch (error) {
    // Another process made the key first: that one is the installation's.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(scratch).catch(() => undefined);
  }
  settings.security.SECRET_KEY = (await readFile(file, 'utf8')).trim();
  return file;
}
