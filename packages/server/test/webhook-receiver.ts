/**
 * A real HTTP receiver for webhook tests (not a test file itself): records every request, answers with the
 * statuses queued (200 once the queue is empty), and waits for requests.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { uniq } from './helpers';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answers the next requests with these statuses, in order (0: no answer at all). */
  answer(...statuses: number[]): void;
  /** Resolves with the `count`-th request that matches (1-based), waiting up to `timeoutMs`. */
  waitFor(match: (r: ReceivedRequest) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const statuses: number[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = statuses.shift() ?? 200;
      // 0: never answer (the sender's timeout ends it).
      if (status === 0) return;
      res.writeHead(status, { 'content-type': 'text/plain', 'x-receiver': 'yes' });
      res.end(status === 200 ? 'ok' : 'nope');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (...s) => statuses.push(...s),
    waitFor: (match, count = 1, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.filter(match);
          if (found.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found[count - 1]!);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching request within ${timeoutMs} ms (received ${requests.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the event webhook tests start with: a server that may deliver to loopback, a receiver, one account. */
export interface HookedServer {
  s: TestServer;
  receiver: Receiver;
  /** The account's name (`prefix` + random) and its token headers. */
  name: string;
  h: Record<string, string>;
  close(): Promise<void>;
}

export async function startHookedServer(prefix: string): Promise<HookedServer> {
  const s = await startTestServer({ webhook: { ALLOWED_HOST_LIST: 'loopback' } });
  const receiver = await startReceiver();
  const name = uniq(prefix);
  await createUser(s.host, name);
  const h = tokenHeader(await createToken(s.host, name));
  return { s, receiver, name, h, close: async () => void (await Promise.all([s.cleanup(), receiver.close()])) };
}
