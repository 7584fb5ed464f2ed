import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import {
  RepositoryExistsError,
  type CommitFilesOptions,
  type GitBackend,
  type GitService,
  isObjectFormat,
  type ObjectFormat,
  type StoredRepository,
  type RefUpdate,
  type RepoKey,
  type RunServiceOptions,
  type ServiceOptions,
  type ServiceSession,
  type Signature,
} from './backend.js';
import { ReceiveCommandReader } from './pkt-line.js';

export interface NativeGitOptions {
  /** Folder holding `<owner>/<name>.git` bare repositories ([repository] ROOT). */
  root: string;
  /** The git binary. */
  gitPath?: string;
}

interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

const HEX_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * util-linux's `setpriv`, when present: git is started through it with a parent-death signal, so a git process
 * dies with the server (kill -9 included) instead of finishing a push nobody will record.
 */
const SETPRIV = process.platform === 'linux' && existsSync('/usr/bin/setpriv') ? '/usr/bin/setpriv' : undefined;

/** Git storage on disk, driven through the `git` binary. */
export class NativeGitBackend implements GitBackend {
  private readonly root: string;
  private readonly gitPath: string;

  constructor(options: NativeGitOptions) {
    this.root = path.resolve(options.root);
    this.gitPath = options.gitPath ?? 'git';
  }

  /** Absolute path of a repository's bare folder. Names were validated by core; the check here is a second fence. */
  pathOf(key: RepoKey): string {
    for (const part of [key.owner, key.name]) {
      if (!part || part.includes('/') || part.includes('\\') || part === '.' || part === '..' || part.includes('\0')) {
        throw new Error(`invalid repository key part: ${JSON.stringify(part)}`);
      }
    }
    return path.join(this.root, key.owner, `${key.name}.git`);
  }

  private env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      ...extra,
    };
  }

  /** Starts git; every git process of the server is started here, tied to the server's life. */
  private spawnGit(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
    const options: SpawnOptionsWithoutStdio = { env: this.env(env), stdio: 'pipe' };
    if (SETPRIV) return spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', this.gitPath, ...args], options);
    return spawn(this.gitPath, args, options);
  }

  private run(args: string[], options: { input?: Buffer | string; env?: Record<string, string> } = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = this.spawnGit(args, options.env);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', reject);
      child.on('close', (code) =>
        resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 }),
      );
      child.stdin.on('error', () => {});
      child.stdin.end(options.input ?? '');
    });
  }

  private async git(key: RepoKey, args: string[], options: { input?: Buffer | string; env?: Record<string, string> } = {}): Promise<Buffer> {
    const result = await this.run(['--git-dir', this.pathOf(key), ...args], options);
    if (result.code !== 0) throw new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`);
    return result.stdout;
  }

  async create(key: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void> {
    const dir = this.pathOf(key);
    // Readable by the server's account only: private repositories' contents live here.
    await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
    try {
      // Not recursive: fails if the folder exists, which is what keeps two creators apart.
      await mkdir(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RepositoryExistsError(key);
      throw error;
    }
    try {
      const init = await this.run([
        'init',
        '--bare',
        '--quiet',
        // Files git writes (now and on every push) get mode 0600, folders 0700, whatever the process umask.
        '--shared=0600',
        `--object-format=${options.objectFormat}`,
        `--initial-branch=${options.defaultBranch}`,
        dir,
      ]);
      if (init.code !== 0) throw new Error(`git init failed: ${init.stderr.trim()}`);
      // Let clients ask for partial clones, and advertise push options.
      await this.git(key, ['config', 'uploadpack.allowFilter', 'true']);
      await this.git(key, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
      await this.git(key, ['config', 'receive.advertisePushOptions', 'true']);
    } catch (error) {
      await this.remove(key);
      throw error;
    }
  }

  async exists(key: RepoKey): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isDirectory();
    } catch {
      return false;
    }
  }

  private get trash(): string {
    return path.join(this.root, '.trash');
  }

  async remove(key: RepoKey): Promise<void> {
    const dir = this.pathOf(key);
    const doomed = path.join(this.trash, `${key.owner}-${key.name}-${randomBytes(6).toString('hex')}`);
    await mkdir(this.trash, { recursive: true, mode: 0o700 });
    try {
      await rename(dir, doomed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await rm(doomed, { recursive: true, force: true });
  }

  async list(): Promise<RepoKey[]> {
    const keys: RepoKey[] = [];
    for (const owner of await readdirOrEmpty(this.root)) {
      // `.trash` and other dot-folders are ours, not owners (no owner name starts with a dot).
      if (!owner.isDirectory() || owner.name.startsWith('.')) continue;
      for (const entry of await readdirOrEmpty(path.join(this.root, owner.name))) {
        if (entry.isDirectory() && entry.name.endsWith('.git') && entry.name.length > 4) {
          keys.push({ owner: owner.name, name: entry.name.slice(0, -4) });
        }
      }
    }
    return keys;
  }

  async describe(key: RepoKey): Promise<StoredRepository> {
    const format = (await this.git(key, ['rev-parse', '--show-object-format'])).toString().trim();
    const head = await this.run(['--git-dir', this.pathOf(key), 'symbolic-ref', '--short', 'HEAD']);
    return {
      objectFormat: isObjectFormat(format) ? format : 'sha1',
      headBranch: head.code === 0 ? head.stdout.toString().trim() : '',
    };
  }

  async collectGarbage(): Promise<void> {
    await rm(this.trash, { recursive: true, force: true });
  }

  async commitFiles(key: RepoKey, options: CommitFilesOptions): Promise<string> {
    const tree = await this.writeTree(key, options.files);
    const committer = options.committer ?? options.author;
    const id = (
      await this.git(key, ['commit-tree', tree, '-F', '-'], {
        input: options.message,
        env: { ...signatureEnv('AUTHOR', options.author), ...signatureEnv('COMMITTER', committer) },
      })
    )
      .toString()
      .trim();
    const zero = '0'.repeat(id.length);
    await this.git(key, ['update-ref', `refs/heads/${options.branch}`, id, options.expectedOldId ?? zero]);
    return id;
  }

  /** Builds (nested) tree objects for a flat list of files and returns the root tree id. */
  private async writeTree(key: RepoKey, files: CommitFilesOptions['files']): Promise<string> {
    interface Dir {
      files: Map<string, string>;
      dirs: Map<string, Dir>;
    }
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const file of files) {
      const parts = file.path.split('/').filter((p) => p !== '');
      if (parts.length === 0 || parts.some((p) => p === '.' || p === '..' || p === '.git')) {
        throw new Error(`invalid file path in commit: ${file.path}`);
      }
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.dirs.get(part);
        if (!next) dir.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
        dir = next;
      }
      const blob = (await this.git(key, ['hash-object', '-w', '--stdin'], { input: Buffer.from(file.content) })).toString().trim();
      dir.files.set(parts.at(-1)!, blob);
    }
    const write = async (dir: Dir): Promise<string> => {
      const lines: string[] = [];
      for (const [name, id] of dir.files) lines.push(`100644 blob ${id}\t${name}`);
      for (const [name, sub] of dir.dirs) lines.push(`040000 tree ${await write(sub)}\t${name}`);
      return (await this.git(key, ['mktree'], { input: lines.join('\n') + '\n' })).toString().trim();
    };
    return write(root);
  }

  async setDefaultBranch(key: RepoKey, branch: string): Promise<void> {
    await this.git(key, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
  }

  async readRefs(key: RepoKey, refs: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (refs.length === 0) return found;
    const out = await this.git(key, ['for-each-ref', '--format=%(objectname) %(refname)', ...refs]);
    const wanted = new Set(refs);
    for (const line of out.toString().split('\n')) {
      const space = line.indexOf(' ');
      if (space < 0) continue;
      const ref = line.slice(space + 1);
      // for-each-ref treats arguments as prefixes; keep exact matches only.
      if (wanted.has(ref)) found.set(ref, line.slice(0, space));
    }
    return found;
  }

  async isEmpty(key: RepoKey): Promise<boolean> {
    return (await this.firstBranch(key)) === undefined;
  }

  async firstBranch(key: RepoKey): Promise<string | undefined> {
    const out = (await this.git(key, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/'])).toString().trim();
    return out ? out.slice('refs/heads/'.length) : undefined;
  }

  /**
   * Bytes of objects, loose and packed, from `git count-objects` (as Forgejo measures it): it reads the pack index
   * sizes and the loose-object folders, not every file, so a push does not pay for the repository's whole history.
   */
  async size(key: RepoKey): Promise<number> {
    const out = (await this.git(key, ['count-objects', '-v'])).toString();
    let kib = 0;
    for (const line of out.split('\n')) {
      const match = /^(size|size-pack|size-garbage): (\d+)$/.exec(line.trim());
      if (match) kib += Number(match[2]);
    }
    return kib * 1024;
  }

  async advertiseRefs(key: RepoKey, service: GitService, options: ServiceOptions): Promise<Buffer> {
    const result = await this.run([...serviceConfig(service), service, '--stateless-rpc', '--advertise-refs', this.pathOf(key)], {
      env: protocolEnv(options.protocol),
    });
    if (result.code !== 0) throw new Error(`git ${service} --advertise-refs failed: ${result.stderr.trim()}`);
    return result.stdout;
  }

  runService(key: RepoKey, service: GitService, options: RunServiceOptions): ServiceSession {
    const limit = service === 'receive-pack' && options.maxInputSize ? ['-c', `receive.maxInputSize=${options.maxInputSize}`] : [];
    const args = [...serviceConfig(service), ...limit, service, ...(options.stateless ? ['--stateless-rpc'] : []), this.pathOf(key)];
    const child = this.spawnGit(args, protocolEnv(options.protocol));
    const output = new PassThrough();
    const stderr: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    child.stdout.pipe(output);
    child.stdin.on('error', () => {});
    let reader: ReceiveCommandReader | undefined;
    let input: Readable = options.input;
    if (service === 'receive-pack') {
      reader = new ReceiveCommandReader();
      input = options.input.pipe(reader);
    }
    options.input.on('error', (error) => child.stdin.destroy(error));
    input.pipe(child.stdin);
    const stopOnAbort = this.stopOnAbort(child, [options.input, input], output, options.signal);

    const exited = new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        stopOnAbort.dispose();
        if (code === 0) resolve();
        else if (stopOnAbort.stopped) reject(new Error(`git ${service} stopped: the client went away`));
        else reject(new Error(`git ${service} exited with ${code ?? signal}: ${Buffer.concat(stderr).toString().trim()}`));
      });
    });
    const done = exited.then(async () => {
      if (!reader || reader.commands.length === 0) return [];
      return this.appliedUpdates(key, reader.commands);
    });
    // Callers that only stream the output must not see an unhandled rejection.
    done.catch(() => {});
    return { output, done };
  }

  /**
   * Kills a service whose client has gone away: nobody will read its answer, and it holds a process (and its
   * caller's slot) until it exits. The streams are let go too, so the child's `close` comes at once even when its
   * output was never read.
   */
  private stopOnAbort(child: ChildProcessWithoutNullStreams, inputs: Readable[], output: PassThrough, signal: AbortSignal | undefined) {
    const state = { stopped: false, dispose: () => {} };
    if (!signal) return state;
    const stop = () => {
      state.stopped = true;
      child.kill('SIGKILL');
      for (const input of inputs) input.unpipe();
      child.stdin.destroy();
      child.stdout.destroy();
      // Without an error: a reader that has no error listener must not crash the process.
      output.destroy();
    };
    if (signal.aborted) stop();
    else {
      signal.addEventListener('abort', stop, { once: true });
      state.dispose = () => signal.removeEventListener('abort', stop);
    }
    return state;
  }

  /** Keeps the commands whose ref now holds the requested value: those receive-pack applied. */
  private async appliedUpdates(key: RepoKey, commands: RefUpdate[]): Promise<RefUpdate[]> {
    const valid = commands.filter((c) => HEX_ID.test(c.oldId) && HEX_ID.test(c.newId) && c.ref.startsWith('refs/'));
    const current = await this.readRefs(key, [...new Set(valid.map((c) => c.ref))]);
    return valid.filter((c) => {
      const now = current.get(c.ref);
      return /^0+$/.test(c.newId) ? now === undefined : now === c.newId;
    });
  }
}

async function readdirOrEmpty(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function signatureEnv(kind: 'AUTHOR' | 'COMMITTER', sig: Signature): Record<string, string> {
  const env: Record<string, string> = { [`GIT_${kind}_NAME`]: sig.name, [`GIT_${kind}_EMAIL`]: sig.email };
  if (sig.when) env[`GIT_${kind}_DATE`] = `${Math.floor(sig.when.getTime() / 1000)} +0000`;
  return env;
}

function serviceConfig(service: GitService): string[] {
  return service === 'upload-pack' ? ['-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true'] : [];
}

function protocolEnv(protocol: string | undefined): Record<string, string> {
  return protocol ? { GIT_PROTOCOL: protocol } : {};
}
