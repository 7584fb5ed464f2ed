/**
 * Several `repohost web` processes of the built CLI on one installation (one work path: repositories, key file and
 * blobs; one database), each on its own port as if on its own host, behind a round-robin HTTP proxy of the test's
 * own standing in for the load balancer.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer as createNetServer, connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = path.join(root, 'packages', 'cli', 'dist', 'main.js');

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the `git` client in `cwd` as a test user of its own (HOME is `cwd`; no system or global configuration). */
export function git(args: string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
      { cwd, env: { PATH: process.env.PATH, HOME: cwd, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 5): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** One `repohost web` process. */
export class NodeProcess {
  readonly output: string[] = [];
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly workPath: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [CLI, 'web', '--quiet', '--work-path', this.workPath, '--port', String(this.port)], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (c: Buffer) => this.output.push(c.toString()));
    child.stderr!.on('data', (c: Buffer) => this.output.push(c.toString()));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await waitFor(`${this.name} to answer`, async () => {
      if (child.exitCode !== null) throw new Error(`${this.name} exited: ${this.output.join('')}`);
      const ok = await fetch(`${this.url}api/v1/version`).then((r) => r.ok, () => false);
      return ok ? true : undefined;
    });
  }

  async kill9(): Promise<void> {
    if (!this.alive) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    this.child!.kill('SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * A round-robin HTTP proxy, as a load balancer: each request goes to the next process that is up, with
 * `X-Forwarded-For` set to the client. A process that refuses connections is taken out until it accepts them
 * again (checked every 250 ms); a request that found it dead is retried on the next one when it is a GET or HEAD
 * (nothing of its body was sent), and answered 502 otherwise, as HAProxy and nginx do.
 */
export class RoundRobinProxy {
  private server: http.Server | undefined;
  private next = 0;
  private readonly down = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  /** Requests sent to each backend port. */
  readonly sent = new Map<number, number>();
  port = 0;

  constructor(private readonly backends: () => number[]) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  async start(): Promise<void> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    this.server = http.createServer((req, res) => this.forward(req, res, agent, 0));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as { port: number }).port;
    this.timer = setInterval(() => void this.recheck(), 250);
    this.timer.unref();
  }

  private pick(): number | undefined {
    const ports = this.backends();
    for (let i = 0; i < ports.length; i++) {
      const port = ports[this.next++ % ports.length]!;
      if (!this.down.has(port)) return port;
    }
    return undefined;
  }

  private async recheck(): Promise<void> {
    for (const port of [...this.down]) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (up) this.down.delete(port);
    }
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse, agent: http.Agent, tries: number): void {
    const port = this.pick();
    if (port === undefined) {
      res.writeHead(503).end('no backend');
      return;
    }
    this.sent.set(port, (this.sent.get(port) ?? 0) + 1);
    const headers = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1' };
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error.code === 'ECONNREFUSED';
      if (refused) this.down.add(port);
      const replayable = req.method === 'GET' || req.method === 'HEAD';
      if (refused && replayable && !res.headersSent && tries < this.backends().length) {
        this.forward(req, res, agent, tries + 1);
        return;
      }
      if (!res.headersSent) res.writeHead(502).end('backend failed');
      else res.destroy();
    });
    if (req.method === 'GET' || req.method === 'HEAD') upstream.end();
    else req.pipe(upstream);
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
