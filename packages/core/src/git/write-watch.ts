/**
 * How much a process has written, from Linux's I/O accounting (`/proc/<pid>/io`, `wchar`): what tells a git that
 * writes a fetch's answer to the client's socket itself from one stuck behind a client that reads nothing, since
 * this process no longer sees those bytes go by.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

let observable: boolean | undefined;

/** Whether processes' writes can be counted here (Linux, with `/proc` mounted and readable). */
export function writesObservable(): boolean {
  if (observable === undefined) {
    try {
      observable = process.platform === 'linux' && writtenBytes(readFileSync('/proc/self/io', 'latin1')) !== undefined;
    } catch {
      observable = false;
    }
  }
  return observable;
}

/** The `wchar` of a `/proc/<pid>/io` text: bytes the process has passed to write calls. */
export function writtenBytes(io: string): number | undefined {
  const at = io.indexOf('wchar: ');
  if (at < 0) return undefined;
  const end = io.indexOf('\n', at);
  const value = Number(io.slice(at + 'wchar: '.length, end < 0 ? undefined : end));
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Calls `onIdle` once process `pid` has written nothing for `idleMs`, looking a few times per period (a read of one
 * small file each time). Stops by itself once the process has gone; the function returned stops it earlier.
 */
export function watchWrites(pid: number, idleMs: number, onIdle: () => void): () => void {
  let last: number | undefined;
  let lastChange = Date.now();
  let reading = false;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  const timer = setInterval(
    () => {
      if (reading || stopped) return;
      reading = true;
      readFile(`/proc/${pid}/io`, 'latin1').then(
        (io) => {
          reading = false;
          if (stopped) return;
          const written = writtenBytes(io);
          const now = Date.now();
          if (written !== last) {
            last = written;
            lastChange = now;
          } else if (now - lastChange >= idleMs) {
            stop();
            onIdle();
          }
        },
        () => {
          // The process has gone (or its accounting with it): nothing left to watch.
          reading = false;
          stop();
        },
      );
    },
    Math.min(5000, Math.max(100, Math.floor(idleMs / 4))),
  );
  timer.unref();
  return stop;
}
