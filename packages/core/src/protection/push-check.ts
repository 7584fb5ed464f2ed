import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { FULL_HEX_ID, type RefUpdate } from '../git/index.js';
import type { PushCheck } from '../repos/index.js';

/** Decides one push: the refusal message, or undefined to let it through. */
export type PushDecision = (updates: RefUpdate[], quarantine: Record<string, string>) => Promise<string | undefined>;

/** The hook sends its input lines and three paths: far less than this. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
/** A connection that sends nothing, or a check that runs this long, is dropped; the hook then refuses the push. */
const IDLE_TIMEOUT_MS = 120_000;
const QUARANTINE_VARIABLES = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH'] as const;

/**
 * Where pre-receive hooks ask the running server about a push: a loopback TCP listener opened on the first push
 * to a repository with protection rules, answering one JSON request per connection. Each push registers a
 * decision under a random secret that only its git process's environment holds; a request without a live secret
 * is refused. The listener does not keep the process alive.
 */
export class PushCheckEndpoint {
  private listening: Promise<string> | undefined;
  private server: Server | undefined;
  private readonly pending = new Map<string, PushDecision>();

  async open(decide: PushDecision): Promise<PushCheck> {
    const endpoint = await this.listen();
    const token = randomBytes(32).toString('hex');
    this.pending.set(token, decide);
    return { callback: { endpoint, token }, close: () => void this.pending.delete(token) };
  }

  close(): void {
    this.server?.close();
    this.server = undefined;
    this.listening = undefined;
  }

  private listen(): Promise<string> {
    if (this.listening) return this.listening;
    const listening = new Promise<string>((resolve, reject) => {
      const server = createServer({ allowHalfOpen: true }, (socket) => this.serve(socket));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        const address = server.address();
        if (address === null || typeof address === 'string') return reject(new Error('push check endpoint has no port'));
        resolve(`127.0.0.1:${address.port}`);
      });
      this.server = server;
    });
    // A failure is not kept: the next push tries again.
    listening.catch(() => {
      if (this.listening === listening) this.listening = undefined;
    });
    return (this.listening = listening);
  }

  private serve(socket: Socket): void {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) socket.destroy();
      else chunks.push(chunk);
    });
    socket.on('end', () => {
      this.answer(Buffer.concat(chunks)).then(
        (reply) => socket.end(JSON.stringify(reply)),
        (error: unknown) => {
          console.error('[repohost] push check failed:', error);
          socket.end(JSON.stringify({ ok: false, message: 'the server could not check this push' }));
        },
      );
    });
  }

  private async answer(body: Buffer): Promise<{ ok: boolean; message?: string }> {
    let request: unknown;
    try {
      request = JSON.parse(body.toString('utf8'));
    } catch {
      return { ok: false, message: 'malformed push check' };
    }
    if (typeof request !== 'object' || request === null) return { ok: false, message: 'malformed push check' };
    const { token, updates, env } = request as { token?: unknown; updates?: unknown; env?: unknown };
    const decide = typeof token === 'string' ? this.pending.get(token) : undefined;
    if (!decide) return { ok: false, message: 'this push is not known to the server' };
    if (typeof updates !== 'string') return { ok: false, message: 'malformed push check' };
    const quarantine: Record<string, string> = {};
    if (typeof env === 'object' && env !== null) {
      for (const name of QUARANTINE_VARIABLES) {
        const value = (env as Record<string, unknown>)[name];
        if (typeof value === 'string' && value !== '' && !value.includes('\0')) quarantine[name] = value;
      }
    }
    const refusal = await decide(parseUpdates(updates), quarantine);
    return refusal === undefined ? { ok: true } : { ok: false, message: refusal };
  }
}

/** The hook's `<old> <new> <ref>` lines; anything else is left out. */
export function parseUpdates(text: string): RefUpdate[] {
  const updates: RefUpdate[] = [];
  for (const line of text.split('\n')) {
    const [oldId = '', newId = '', ref = ''] = line.split(' ');
    if (FULL_HEX_ID.test(oldId) && FULL_HEX_ID.test(newId) && ref.startsWith('refs/')) updates.push({ oldId, newId, ref });
  }
  return updates;
}
