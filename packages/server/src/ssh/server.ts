/**
 * The built-in SSH server: git over SSH (`git@host:owner/repo.git`), authenticated by the users' public keys and
 * served through core's transfer service, so the access checks are exactly those of smart HTTP. A repository's
 * deploy key reaches that repository only: read-only keys fetch, read-write keys push too.
 */
import { createServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { isRepoHostError, parsePublicKey, type RepoHost, type SshIdentity } from '@repohost/core';
import type * as Ssh2 from 'ssh2';
import { loadHostKeys, type GenerateKeyPair } from './host-keys.js';
import { answerLfsAuthenticate, parseGitCommand, parseLfsAuthenticateCommand, sshErrorMessage, SshCommandError, type GitCommand, type LfsAuthenticateCommand } from './command.js';

export interface SshServerOptions {
  /** Port to listen on; 0 picks a free one. Defaults to `[server] SSH_LISTEN_PORT`. */
  port?: number;
  /** Address to listen on. Defaults to `[server] SSH_LISTEN_HOST` (empty: every address). */
  hostname?: string;
  /** Milliseconds a connection has to authenticate (OpenSSH's LoginGraceTime). Default 30 s. */
  authTimeoutMs?: number;
  /** Connections that have not authenticated yet, at most; more are dropped at once. Default 64. */
  maxUnauthenticated?: number;
  /**
   * Milliseconds an authenticated connection may pass with no git data moving either way before it is closed (and
   * its git stopped); 0 disables. Default `[repohost] HTTP_IDLE_TIMEOUT`.
   */
  idleTimeoutMs?: number;
}

export interface RunningSshServer {
  /** The port actually listened on. */
  readonly port: number;
  /** The address actually listened on. */
  readonly address: string;
  /** The host's public keys, as `known_hosts` lines take them (`ssh-ed25519 AAAA…`). */
  readonly hostPublicKeys: readonly string[];
  /** Stops listening and closes every connection (their git processes are stopped). */
  close(): Promise<void>;
}

const DEFAULT_AUTH_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_UNAUTHENTICATED = 64;
/** Key offers per connection (OpenSSH's MaxAuthTries). */
const MAX_AUTH_ATTEMPTS = 6;
/** Sessions one connection may hold open at once; git uses one. */
const MAX_SESSIONS_PER_CONNECTION = 4;

type Ssh2Module = typeof Ssh2;

/** ssh2 is loaded only when SSH is served: most processes never need it. */
async function loadSsh2(): Promise<Ssh2Module> {
  const loaded = (await import('ssh2')) as Ssh2Module & { default?: Ssh2Module };
  return loaded.default ?? loaded;
}

/** Algorithm lists from the settings; empty lists keep the library's defaults. */
function algorithms(settings: RepoHost['settings']): Ssh2.Algorithms {
  const { SSH_SERVER_CIPHERS, SSH_SERVER_KEY_EXCHANGES, SSH_SERVER_MACS } = settings.server;
  const chosen: Ssh2.Algorithms = {};
  if (SSH_SERVER_CIPHERS.length) chosen.cipher = SSH_SERVER_CIPHERS as Ssh2.CipherAlgorithm[];
  if (SSH_SERVER_KEY_EXCHANGES.length) chosen.kex = SSH_SERVER_KEY_EXCHANGES as Ssh2.KexAlgorithm[];
  if (SSH_SERVER_MACS.length) chosen.hmac = SSH_SERVER_MACS as Ssh2.MacAlgorithm[];
  return chosen;
}

/** One TCP connection: its deadline to authenticate, then the account it authenticated as. */
interface ConnectionState {
  socket: Socket;
  authTimer: NodeJS.Timeout | undefined;
  /** The user (or deploy key) the connection authenticated as. */
  authenticated: SshIdentity | undefined;
  authAttempts: number;
  sessions: number;
  idleTimer: NodeJS.Timeout | undefined;
  /** Aborted when the connection closes: its git processes stop even if a channel never reports its own close. */
  gone: AbortController;
}

/**
 * ssh2's ed25519 generator writes about one key in 256 that its own parser rejects (a public key starting with a
 * zero byte loses that byte: mscdex/ssh2#1513). A host key is kept for good once written, so such a key would stop
 * the SSH server from ever starting: keys are generated again until both halves parse.
 */
export function usableKeyGenerator(utils: Pick<typeof Ssh2.utils, 'generateKeyPairSync' | 'parseKey'>, attempts = 32): GenerateKeyPair {
  return () => {
    for (let i = 0; i < attempts; i++) {
      const pair = utils.generateKeyPairSync('ed25519');
      if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) return pair;
    }
    throw new Error('could not generate an ed25519 host key that parses');
  };
}

/**
 * Starts the built-in SSH server for `host`: host keys from `[server] SSH_SERVER_HOST_KEYS` (generated on first
 * start), public-key authentication against the users' keys, and `git-upload-pack` / `git-receive-pack` only.
 * Closing it does not close the host.
 */
export async function startSshServer(host: RepoHost, options: SshServerOptions = {}): Promise<RunningSshServer> {
  const ssh2 = await loadSsh2();
  const settings = host.settings;
  const hostKeys = await loadHostKeys(settings.server.SSH_SERVER_HOST_KEYS, usableKeyGenerator(ssh2.utils));
  const hostPublicKeys = hostKeys.map((key) => {
    const parsed = ssh2.utils.parseKey(key);
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    if (!first || first instanceof Error) throw new Error(`cannot read an SSH host key: ${first instanceof Error ? first.message : 'empty'}`);
    return `${first.type} ${first.getPublicSSH().toString('base64')}`;
  });
  const authTimeoutMs = options.authTimeoutMs ?? DEFAULT_AUTH_TIMEOUT_MS;
  const maxUnauthenticated = options.maxUnauthenticated ?? DEFAULT_MAX_UNAUTHENTICATED;
  const idleTimeoutMs = options.idleTimeoutMs ?? Math.max(0, settings.repohost.HTTP_IDLE_TIMEOUT) * 1000;

  const connections = new Map<Socket, ConnectionState>();
  /** ssh2 names a connection by its peer's address; this finds the socket (and its state) from that. */
  const byPeer = new Map<string, ConnectionState>();
  const peerKey = (address: string | undefined, port: number | undefined) => `${address ?? ''}|${port ?? ''}`;
  let unauthenticated = 0;

  const markAuthenticated = (state: ConnectionState) => {
    if (state.authTimer === undefined) return;
    clearTimeout(state.authTimer);
    state.authTimer = undefined;
    unauthenticated--;
  };

  const ssh = new ssh2.Server({ hostKeys, algorithms: algorithms(settings), ident: 'RepoHost' }, (client, info) => {
    // Without a listener an error (a client that hangs up mid-handshake) would crash the process.
    client.on('error', () => {});
    const state = byPeer.get(peerKey(info.ip, info.port));
    if (!state) {
      client.end();
      return;
    }
    const refreshIdle = () => state.idleTimer?.refresh();
    client.on('authentication', (ctx) => {
      void authenticate(host, ssh2, state, ctx).catch((error: unknown) => {
        console.error('[repohost] ssh authentication failed:', error);
        ctx.reject();
      });
    });
    client.on('ready', () => {
      markAuthenticated(state);
      if (idleTimeoutMs > 0) state.idleTimer = setTimeout(() => client.end(), idleTimeoutMs);
    });
    client.on('session', (accept, reject) => {
      const account = state.authenticated;
      if (!account || state.sessions >= MAX_SESSIONS_PER_CONNECTION) return reject();
      state.sessions++;
      refreshIdle();
      const session = accept();
      session.once('close', () => state.sessions--);
      let protocol: string | undefined;
      let started = false;
      // Only GIT_PROTOCOL is taken from the client's environment; it is checked again by core.
      session.on('env', (acceptEnv, rejectEnv, env) => {
        if (env.key === 'GIT_PROTOCOL' && !started) {
          protocol = env.val;
          acceptEnv?.();
        } else rejectEnv?.();
      });
      session.on('pty', (_accept, rejectPty) => rejectPty?.());
      session.on('shell', (acceptShell) => {
        const channel = acceptShell();
        greet(channel, account);
      });
      session.on('exec', (acceptExec, rejectExec, exec) => {
        if (started) return rejectExec?.();
        started = true;
        const channel = acceptExec();
        void serve(host, channel, exec.command, protocol, account, { onActivity: refreshIdle, gone: state.gone.signal });
      });
    });
    client.on('close', () => {
      if (state.idleTimer) clearTimeout(state.idleTimer);
    });
  });

  const tcp: NetServer = createServer((socket) => {
    socket.on('error', () => {});
    if (unauthenticated >= maxUnauthenticated) {
      socket.destroy();
      return;
    }
    unauthenticated++;
    const state: ConnectionState = {
      socket,
      authTimer: setTimeout(() => socket.destroy(), authTimeoutMs),
      authenticated: undefined,
      authAttempts: 0,
      sessions: 0,
      idleTimer: undefined,
      gone: new AbortController(),
    };
    const peer = peerKey(socket.remoteAddress, socket.remotePort);
    connections.set(socket, state);
    byPeer.set(peer, state);
    socket.once('close', () => {
      state.gone.abort(new Error('the connection closed'));
      markAuthenticated(state);
      if (state.idleTimer) clearTimeout(state.idleTimer);
      connections.delete(socket);
      if (byPeer.get(peer) === state) byPeer.delete(peer);
    });
    ssh.injectSocket(socket);
  });

  const hostname = options.hostname ?? settings.server.SSH_LISTEN_HOST;
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    const port = options.port ?? settings.server.SSH_LISTEN_PORT;
    if (hostname) tcp.listen(port, hostname, () => resolve());
    else tcp.listen(port, () => resolve());
  });
  tcp.on('error', (error) => console.error('[repohost] ssh server error:', error));
  const address = tcp.address() as AddressInfo;
  // A port picked at random can have nothing forwarding to it: `ssh_url` names the port actually listened on.
  if ((options.port ?? settings.server.SSH_LISTEN_PORT) === 0) settings.server.SSH_PORT = address.port;
  return {
    port: address.port,
    address: address.address,
    hostPublicKeys,
    close: () =>
      new Promise<void>((resolve, reject) => {
        tcp.close((error) => (error ? reject(error) : resolve()));
        for (const socket of connections.keys()) socket.destroy();
      }),
  };
}

/**
 * Public-key authentication: the offered key must be a user key of an account that may sign in, or a deploy key,
 * and, when the client has signed, the signature must verify. Only the configured login (`git`) is accepted.
 */
async function authenticate(host: RepoHost, ssh2: Ssh2Module, state: ConnectionState, ctx: Ssh2.AuthContext): Promise<void> {
  if (ctx.method !== 'publickey' || ctx.username !== host.settings.server.BUILTIN_SSH_SERVER_USER) return ctx.reject(['publickey']);
  if (++state.authAttempts > MAX_AUTH_ATTEMPTS) {
    ctx.reject();
    state.socket.end();
    return;
  }
  let content: string;
  try {
    content = parsePublicKey(ctx.key.data.toString('base64')).content;
  } catch {
    return ctx.reject(['publickey']);
  }
  const found = await host.keys.identify({ content });
  if (!found) return ctx.reject(['publickey']);
  // Without a signature the client only asks whether this key would do; it signs next.
  if (!ctx.signature || !ctx.blob) return ctx.accept();
  const key = ssh2.utils.parseKey(content);
  if (key instanceof Error || Array.isArray(key) || !key.verify(ctx.blob, ctx.signature, ctx.hashAlgo)) return ctx.reject(['publickey']);
  state.authenticated = found;
  ctx.accept();
}

/** The friendly refusal of a shell (or of an empty command), as Forgejo words it. */
function greet(channel: Ssh2.ServerChannel, account: SshIdentity): void {
  channel.stderr.write(
    account.kind === 'user'
      ? `Hi there, ${account.user.name}! You've successfully authenticated, but RepoHost does not provide shell access.\n`
      : `Hi there! You've successfully authenticated with the deploy key named ${account.key.name}, but RepoHost does not provide shell access.\n`,
  );
  channel.exit(0);
  channel.end();
}

/** Tells the client why nothing was served: on stderr, prefixed with the app name, and a failing exit status. */
function refuse(channel: Ssh2.ServerChannel, message: string): void {
  channel.stderr.write(`RepoHost: ${message}\n`);
  channel.exit(1);
  channel.end();
}

/** Passes the client's bytes on to git, and counts them as activity (without reading ahead of git). */
function activityTap(onData: () => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      onData();
      callback(null, chunk);
    },
  });
}

/**
 * Runs one git command over `channel`: parse it (nothing else starts unless it is a git service on a well-formed
 * path), then core's transfer, which authorizes exactly as smart HTTP does. git is stopped when the channel closes.
 */
async function serve(
  host: RepoHost,
  channel: Ssh2.ServerChannel,
  line: string,
  protocol: string | undefined,
  account: SshIdentity,
  connection: { onActivity: () => void; gone: AbortSignal },
): Promise<void> {
  if (line.trim() === '') return greet(channel, account);
  let lfsCommand: LfsAuthenticateCommand | undefined;
  try {
    lfsCommand = parseLfsAuthenticateCommand(line);
  } catch (error) {
    return refuse(channel, sshErrorMessage(error));
  }
  if (lfsCommand) return serveLfsAuthenticate(host, channel, account, lfsCommand);
  let command: GitCommand;
  try {
    command = parseGitCommand(line);
  } catch (error) {
    return refuse(channel, sshErrorMessage(error));
  }
  const { onActivity } = connection;
  const stop = new AbortController();
  const onClose = () => stop.abort(new Error('the client went away'));
  channel.on('close', onClose);
  connection.gone.addEventListener('abort', onClose, { once: true });
  const settled = () => {
    channel.off('close', onClose);
    connection.gone.removeEventListener('abort', onClose);
  };
  channel.on('error', () => {});
  // The tap is read only by git, so bytes that arrive before git starts wait in it, in order.
  const input: Readable = channel.pipe(activityTap(onActivity));
  stop.signal.addEventListener('abort', () => input.destroy(), { once: true });
  let session;
  try {
    // Old names of renamed and transferred repositories are served in place, as Forgejo's serv does.
    const followRenames = host.redirects.followRepo.bind(host.redirects);
    const actor = await host.keys.sshActor(account, { ...command, followRenames });
    session = await host.transfer.run(actor, { ...command, protocol, deployKey: account.kind === 'deploy', followRenames }, input, {
      stateless: false,
      serverSpeaksFirst: true,
      signal: stop.signal,
    });
  } catch (error) {
    settled();
    if (!stop.signal.aborted && !isRepoHostError(error) && !(error instanceof SshCommandError)) console.error('[repohost] ssh git service failed to start:', error);
    if (!stop.signal.aborted) refuse(channel, sshErrorMessage(error, command));
    return;
  }
  const { output, done } = session;
  output.on('data', onActivity);
  output.pipe(channel, { end: false });
  const outputFinished = new Promise<void>((resolve) => {
    output.once('end', resolve);
    output.once('close', resolve);
    output.once('error', () => resolve());
  });
  try {
    await outputFinished;
    // For a push, this settles once the new refs are recorded: the client hears success after that.
    await done;
    settled();
    channel.exit(0);
    channel.end();
  } catch (error) {
    settled();
    if (stop.signal.aborted) return;
    console.error(`[repohost] ssh git ${command.service} for ${command.owner}/${command.name} failed:`, error);
    refuse(channel, 'Failed to execute git command');
  }
}

/** `git-lfs-authenticate`: the token's JSON on stdout, or why not on stderr. */
async function serveLfsAuthenticate(host: RepoHost, channel: Ssh2.ServerChannel, account: SshIdentity, command: LfsAuthenticateCommand): Promise<void> {
  channel.on('error', () => {});
  try {
    const answer = await answerLfsAuthenticate(host, account, command);
    channel.write(answer);
    channel.exit(0);
    channel.end();
  } catch (error) {
    if (!isRepoHostError(error) && !(error instanceof SshCommandError)) console.error('[repohost] ssh git-lfs-authenticate failed:', error);
    refuse(channel, sshErrorMessage(error, { service: command.operation === 'upload' ? 'receive-pack' : 'upload-pack', owner: command.owner, name: command.name }));
  }
}
