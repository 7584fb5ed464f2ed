/**
 * Every package upload waits in a temporary file under `APP_DATA_PATH/tmp/package-upload` before it is stored:
 * it is hashed and measured there, and some formats read it whole first (a Go module zip is read from its end, a
 * PyPI file may come before the form fields that name it).
 * A failed upload removes its own; one a crash cut off is removed at the next start, once nothing could still be
 * writing it (another process on the same data folder may have an upload of its own in progress there).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Settings } from '../config/index.js';
import { PackageQuotaError, QUOTA_TYPE_SIZE } from './errors.js';

/** Older than this, a spooled upload is a crash's leftover: no upload takes that long to be received and stored. */
export const SPOOL_GRACE_MS = 60 * 60 * 1000;

function spoolFolder(settings: Settings): string {
  return path.join(settings.server.APP_DATA_PATH, 'tmp', 'package-upload');
}

/**
 * Writes `body` to a new temporary file and returns its path; past `limit` bytes (-1: none) Forgejo's 403
 * (`PackageQuotaError`) without reading on. `observe` sees each chunk before it is written, with the bytes received
 * so far (hashes, further limits: what it throws ends the upload). On any failure the file is removed.
 */
export async function spoolPackageUpload(
  settings: Settings,
  body: AsyncIterable<Uint8Array>,
  limit: number,
  prefix: string,
  observe?: (chunk: Uint8Array, received: number) => void,
): Promise<string> {
  const folder = spoolFolder(settings);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, `${prefix}-${Date.now()}-${randomBytes(8).toString('hex')}`);
  const handle = await open(file, 'wx', 0o600);
  let size = 0;
  try {
    try {
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (limit > -1 && size > limit) throw new PackageQuotaError(QUOTA_TYPE_SIZE);
        observe?.(chunk, size);
        await handle.write(chunk);
      }
    } finally {
      await handle.close();
    }
  } catch (error) {
    await unlink(file).catch(() => {});
    throw error;
  }
  return file;
}

/** Removes spooled uploads untouched for `graceMs`; returns how many. */
export async function sweepPackageUploadSpool(settings: Settings, graceMs = SPOOL_GRACE_MS, now = Date.now()): Promise<number> {
  const folder = spoolFolder(settings);
  let removed = 0;
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const file = path.join(folder, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile() || now - info.mtimeMs < graceMs) continue;
    if (await unlink(file).then(() => true, () => false)) removed++;
  }
  return removed;
}
