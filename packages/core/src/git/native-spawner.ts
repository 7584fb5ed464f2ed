/**
 * Starting git without holding the event loop. Node starts a child with fork(), and fork() copies the parent's
 * page tables while the event loop waits: measured here, 0.8 ms a process at 44 MB of resident memory, 4.5 ms at
 * 144 MB, 9 ms at 244 MB and 19 ms at 446 MB, for every git process (a clone's upload-pack, a push's receive-pack,
 * each `for-each-ref`). A server that grows therefore holds every other request longer for each git it starts.
 *
 * So a small helper process, started once the server has grown past 128 MiB, forks git for it: the server asks for
 * a process over the helper's IPC channel and connects three Unix sockets to the helper for its stdin, stdout and
 * stderr; the helper hands those sockets to git as its stdio and closes its own ends. Bytes then flow between the
 * server and git directly, as over the pipes Node makes (which are socket pairs on Linux too), and the server's
 * part of a start is a message and three connects. Exits and kills travel over the IPC channel.
 *
 * Each connection starts with the request's id and the stream it is (9 bytes); the helper reads no further, since
 * the server writes nothing more to stdin until the helper says git has its sockets. Where the helper is not (yet)
 * running, or has gone, git is started directly, as before.
 *
 * A process may be given a connected socket as its stdout instead (a fetch's answer, written by git to the client
 * itself): started directly, the socket is its stdio; through the helper, the socket travels with the request over
 * the IPC channel (Node passes the descriptor), in place of the stdout connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';

/** A git process, started directly (a ChildProcess) or by the helper: what the backend's modules use of one. */
export interface GitProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Undefined until the helper has started it, and for a process that could not be started. */
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  /** The program and its arguments, as started. */
  readonly spawnargs: string[];
  kill(signal?: NodeJS.Signals | number): boolean;
  on(event: 'close' | 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  /** Once the process has started; never for one that could not be. */
  on(event: 'spawn', listener: () => void): this;
  once(event: 'close' | 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
  once(event: 'spawn', listener: () => void): this;
}

/** Server → helper. A spawn with `stdoutHandle` comes with the socket for git's stdout (no stdout connection). */
type HelperRequest = { op: 'spawn'; id: number; file: string; args: string[]; env: NodeJS.ProcessEnv; stdoutHandle?: boolean } | { op: 'kill'; id: number; signal: NodeJS.Signals | number };
/** Helper → server. */
type HelperReply =
  | { op: 'listening' }
  | { op: 'started'; id: number; pid: number }
  | { op: 'failed'; id: number; message: string; code?: string }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };

const STREAMS = ['i', 'o', 'e'] as const;
const HEADER_BYTES = 9;

/**
 * The helper's program (CommonJS, run with `node -e`, so it needs no file of its own): it listens on the socket the
 * server named, starts what the server asks once the request and its three connections have come, and reports
 * starts and exits. When the server goes, it kills what it started and ends. Messages: see HelperRequest/Reply.
 */
const HELPER_SCRIPT = `'use strict';
const { spawn } = require('node:child_process');
const net = require('node:net');
const fs = require('node:fs');
const path = require('node:path');
const socketPath = process.env.REPOHOST_SPAWNER_SOCKET;
const pending = new Map();
const running = new Map();
// A server that has gone is noticed by 'disconnect'; a reply it can no longer take is dropped.
const send = (reply) => { if (process.connected) process.send(reply, () => {}); };
const pendingOf = (id) => {
  let entry = pending.get(id);
  if (!entry) pending.set(id, (entry = { sockets: {} }));
  return entry;
};
// A connection from the server, or the raw handle of a socket it sent (no stream around it: nothing here reads it).
const release = (socket) => (socket.destroy ? socket.destroy() : socket.close());
const maybeStart = (id) => {
  const entry = pending.get(id);
  if (!entry || !entry.request || !entry.sockets.i || !entry.sockets.o || !entry.sockets.e) return;
  pending.delete(id);
  const { i, o, e } = entry.sockets;
  let child;
  try {
    child = spawn(entry.request.file, entry.request.args, { env: entry.request.env, stdio: [i, o, e] });
  } catch (error) {
    send({ op: 'failed', id, message: error.message, code: error.code });
    for (const socket of [i, o, e]) release(socket);
    return;
  }
  // git holds its own copies now; the helper's are closed before it could read a byte meant for git.
  for (const socket of [i, o, e]) release(socket);
  child.on('error', (error) => send({ op: 'failed', id, message: error.message, code: error.code }));
  if (child.pid === undefined) return;
  running.set(id, child);
  send({ op: 'started', id, pid: child.pid });
  if (entry.killed !== undefined) child.kill(entry.killed);
  child.on('exit', (code, signal) => {
    running.delete(id);
    send({ op: 'exit', id, code, signal });
  });
};
const server = net.createServer((socket) => {
  let header = Buffer.alloc(0);
  const onData = (chunk) => {
    header = Buffer.concat([header, chunk]);
    if (header.length < ${HEADER_BYTES}) return;
    socket.off('data', onData);
    socket.pause();
    if (header.length > ${HEADER_BYTES}) return socket.destroy();
    const id = header.readDoubleBE(0);
    const stream = String.fromCharCode(header[8]);
    const entry = pendingOf(id);
    if (entry.sockets[stream]) return socket.destroy();
    entry.sockets[stream] = socket;
    maybeStart(id);
  };
  socket.on('data', onData);
  socket.on('error', () => {});
});
server.listen({ path: socketPath, backlog: 4096 }, () => send({ op: 'listening' }));
process.on('message', (request, handle) => {
  if (request.op === 'spawn') {
    const entry = pendingOf(request.id);
    entry.request = request;
    if (request.stdoutHandle) {
      if (!handle) return send({ op: 'failed', id: request.id, message: 'no socket came with the request' });
      // Closed here once git has its own copy.
      entry.sockets.o = handle;
    }
    maybeStart(request.id);
  } else if (request.op === 'kill') {
    const child = running.get(request.id);
    if (child) child.kill(request.signal);
    else if (pending.has(request.id)) pending.get(request.id).killed = request.signal;
  }
});
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  server.close();
  fs.rmSync(path.dirname(socketPath), { recursive: true, force: true });
  process.exit(0);
});
`;

/** A git process the helper starts: the ChildProcess surface the backend uses, over three sockets. */
class HelperProcess extends EventEmitter implements GitProcess {
  readonly stdin = new PassThrough();
  readonly stdout: Readable;
  readonly stderr: net.Socket;
  private readonly stdinSocket: net.Socket;
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private exited = false;
  private closed = false;
  private openStreams: number;
  private readonly sockets: net.Socket[];

  constructor(
    private readonly spawner: GitSpawner,
    readonly id: number,
    socketPath: string,
    readonly spawnargs: string[],
    redirected: boolean,
  ) {
    super();
    const header = (stream: string) => {
      const bytes = Buffer.alloc(HEADER_BYTES);
      bytes.writeDoubleBE(id, 0);
      bytes[8] = stream.charCodeAt(0);
      return bytes;
    };
    const connect = (stream: string) => {
      const socket = net.connect(socketPath);
      socket.write(header(stream));
      return socket;
    };
    const stdinSocket = connect('i');
    const stdout = redirected ? undefined : connect('o');
    const stderr = connect('e');
    this.stdinSocket = stdinSocket;
    this.stdout = stdout ?? nothingToRead();
    this.stderr = stderr;
    this.openStreams = stdout ? 2 : 1;
    this.sockets = stdout ? [stdinSocket, stdout, stderr] : [stdinSocket, stderr];
    // git never writes to its stdin: reading it only notices the end.
    stdinSocket.resume();
    // Write errors (git gone before reading its input) are the stdin stream's, as with a pipe.
    stdinSocket.on('error', (error) => this.stdin.destroy(error));
    this.stdin.on('error', () => stdinSocket.destroy());
    for (const socket of stdout ? [stdout, stderr] : [stderr]) {
      // A read error ends the stream as a pipe's would; the callers' own listeners still hear it.
      socket.on('error', () => {});
      socket.once('close', () => {
        this.openStreams--;
        this.maybeClose();
      });
    }
    // A connection refused (the helper gone) fails the start.
    const refused = (error: Error) => {
      if (this.pid === undefined && !this.exited) this.failed(error);
    };
    for (const socket of this.sockets) socket.once('error', refused);
  }

  kill(signal: NodeJS.Signals | number = 'SIGTERM'): boolean {
    if (this.exited) return false;
    this.spawner.request({ op: 'kill', id: this.id, signal });
    return true;
  }

  /** The helper started git with the sockets: what was written to stdin meanwhile goes to it now. */
  started(pid: number): void {
    this.pid = pid;
    this.stdin.pipe(this.stdinSocket);
    this.emit('spawn');
  }

  failed(error: Error): void {
    if (this.exited) return;
    this.exited = true;
    this.spawner.forget(this.id);
    this.emit('error', error);
    for (const socket of this.sockets) socket.destroy();
    this.stdin.destroy();
  }

  exit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
    // As with a pipe: nothing more reaches a process that has exited, and a writer hears so instead of waiting.
    this.stdin.unpipe(this.stdinSocket);
    this.stdinSocket.destroy();
    this.stdin.destroy();
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.closed || !this.exited || this.openStreams > 0) return;
    this.closed = true;
    this.emit('close', this.exitCode, this.signalCode);
  }
}

/** Starts processes through the helper when it is up, directly otherwise. One per server process. */
class GitSpawner {
  /** The helper once it takes requests, and the socket it listens on. */
  private up: { helper: ChildProcess; socketPath: string } | undefined;
  private starting: Promise<boolean> | undefined;
  /** After the helper has gone, when it may be started again (a helper that keeps dying is not restarted at once). */
  private restartAt = 0;
  private nextId = 1;
  private readonly processes = new Map<number, HelperProcess>();

  /**
   * Starts `file` with `args` (stdio as pipes): through the helper when it is ready. With `stdout`, a connected
   * socket, the process writes its output there itself, and its `stdout` stream has nothing to read.
   */
  spawn(file: string, args: string[], env: NodeJS.ProcessEnv, stdout?: net.Socket): GitProcess {
    if (!this.up) {
      // A small process (a CLI command, `repohost serv`, a cluster's primary) forks quickly and needs no helper.
      if (process.memoryUsage.rss() >= HELPER_FROM_RSS_BYTES) void this.ready();
      if (!stdout) return spawn(file, args, { env, stdio: 'pipe' });
      const child = spawn(file, args, { env, stdio: ['pipe', stdout, 'pipe'] });
      return Object.assign(child, { stdout: nothingToRead() }) as GitProcess;
    }
    const id = this.nextId++;
    const child = new HelperProcess(this, id, this.up.socketPath, [file, ...args], stdout !== undefined);
    this.processes.set(id, child);
    // While a process runs, its exit is still to come over the channel: a script waiting for it must not end.
    if (this.processes.size === 1) this.up.helper.channel?.ref();
    if (stdout) this.sendWithHandle({ op: 'spawn', id, file, args, env, stdoutHandle: true }, stdout, child);
    else this.request({ op: 'spawn', id, file, args, env });
    return child;
  }

  /**
   * Starts the helper unless it runs: true once it takes requests, false where it is not used (other systems than
   * Linux, where it was measured: macOS's libuv uses posix_spawn, Windows has no fork; REPOHOST_GIT_SPAWN_HELPER=0;
   * no temporary folder) or has just died.
   */
  ready(): Promise<boolean> {
    if (this.up) return Promise.resolve(true);
    if (this.starting) return this.starting;
    if (process.platform !== 'linux' || process.env.REPOHOST_GIT_SPAWN_HELPER === '0' || Date.now() < this.restartAt) return Promise.resolve(false);
    this.starting = new Promise<boolean>((resolve) => this.start(resolve)).finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** The helper's process id, while it runs. */
  get helperPid(): number | undefined {
    return this.up?.helper.pid;
  }

  request(message: HelperRequest): void {
    this.up?.helper.send(message);
  }

  /**
   * A request with the descriptor of `socket` (the helper gets a copy; ours stays open). Its raw handle goes, not
   * the socket: Node would count a server's socket sent as a net.Socket among connections the helper holds for it,
   * and the server's `close()` would then wait for the helper's word.
   */
  private sendWithHandle(message: HelperRequest, socket: net.Socket, child: HelperProcess): void {
    const handle = (socket as unknown as { _handle?: object | null })._handle;
    if (!handle) {
      queueMicrotask(() => child.failed(new Error('spawn: the socket for its output has closed')));
      return;
    }
    this.up?.helper.send(message, handle as net.Socket, { keepOpen: true });
  }

  forget(id: number): void {
    this.processes.delete(id);
    if (this.processes.size === 0) this.up?.helper.channel?.unref();
  }

  private start(resolve: (ready: boolean) => void): void {
    let folder: string;
    try {
      folder = mkdtempSync(path.join(tmpdir(), 'repohost-spawn-'));
    } catch {
      resolve(false);
      return;
    }
    const socketPath = path.join(folder, 's');
    const helper = spawn(process.execPath, ['--max-old-space-size=64', '-e', HELPER_SCRIPT], {
      env: { PATH: process.env.PATH, REPOHOST_SPAWNER_SOCKET: socketPath },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    helper.on('message', (reply: HelperReply) => {
      if (reply.op === 'listening') {
        // Once up, neither the helper nor its channel keeps this process alive; running git processes' sockets do.
        helper.unref();
        helper.channel?.unref();
        this.up = { helper, socketPath };
        resolve(true);
        return;
      }
      const child = this.processes.get(reply.id);
      if (!child) return;
      if (reply.op === 'started') child.started(reply.pid);
      else if (reply.op === 'failed') child.failed(Object.assign(new Error(`spawn ${reply.message}`), { code: reply.code }));
      else {
        this.forget(reply.id);
        child.exit(reply.code, reply.signal);
      }
    });
    let gone = false;
    const onGone = () => {
      if (gone) return;
      gone = true;
      if (this.up?.helper === helper) this.up = undefined;
      this.restartAt = Date.now() + HELPER_RESTART_PAUSE_MS;
      resolve(false);
      // What the helper had started died with it (their parent-death signal, or its own kill); their callers hear so.
      const orphans = [...this.processes.values()];
      this.processes.clear();
      for (const child of orphans) child.failed(new Error('the git process helper exited'));
      rmSync(folder, { recursive: true, force: true });
    };
    helper.on('error', onGone);
    helper.on('exit', onGone);
  }
}

/** The stdout of a process that writes its output elsewhere: ended, with nothing in it. */
function nothingToRead(): Readable {
  const stream = new PassThrough();
  stream.end();
  stream.resume();
  return stream;
}

/** Resident memory from which a direct start holds the event loop about 4 ms or more: the helper is started then. */
const HELPER_FROM_RSS_BYTES = 128 * 1024 * 1024;

/** How long after the helper died git is started directly before the helper is started again. */
const HELPER_RESTART_PAUSE_MS = 5000;

/** The process's one spawner. */
export const gitSpawner = new GitSpawner();
