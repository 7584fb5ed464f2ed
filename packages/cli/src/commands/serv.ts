import type { Readable, Writable } from 'node:stream';
import { RepoHost, type SshIdentity } from '@repohost/core';
import { answerLfsAuthenticate, parseGitCommand, parseLfsAuthenticateCommand, sshErrorMessage, type GitCommand, type LfsAuthenticateCommand } from '@repohost/server';
import { cliSettings, type GlobalOptions } from '../config.js';
import type { CliIo } from '../io.js';
import type { LeafCommand } from '../command.js';

export const SERV: LeafCommand = {
  name: 'serv',
  summary: 'Serve git over OpenSSH for a key (run from authorized_keys)',
  args: 'key-<ID>',
  description: `Run by OpenSSH for a key "repohost keys" let in (the authorized_keys command): serves the git command in
SSH_ORIGINAL_COMMAND (git-upload-pack or git-receive-pack) over stdin and stdout, or answers git-lfs-authenticate
with a token for the LFS API: a user's key as its owner, with
the same permission checks as every other way in; a deploy key on its repositories only (pushing only when it is
read-write), exactly as the built-in SSH server decides.
`,
  run: (input, global, io) => serv(input.positionals, global, io),
};

const KEY_ARGUMENT = /^key-(\d{1,15})$/;

/** Says why nothing was served, as Forgejo's serv does: on stderr, which git shows the user. */
function fail(io: CliIo, message: string): number {
  io.stderr(`RepoHost: ${message}\n`);
  return 1;
}

async function serv(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const keyId = KEY_ARGUMENT.exec(args[0] ?? '')?.[1];
  if (keyId === undefined || args.length !== 1) return fail(io, 'Key ID format error');
  const settings = cliSettings(global, io);
  if (settings.server.DISABLE_SSH) return fail(io, 'SSH has been disabled');

  // Several of these run beside the server: never migrate or repair from here.
  const host = await RepoHost.open({ settings, migrate: false, reconcile: false });
  try {
    const key = await host.keys.findById(Number(keyId));
    if (!key) return fail(io, `Cannot find key: ${keyId}`);
    // The built-in server's question: a user key of an account that may sign in, or a deploy key.
    const identity = await host.keys.identify({ id: key.id });
    if (!identity) return fail(io, 'Your account is disabled.');

    const line = io.env.SSH_ORIGINAL_COMMAND ?? '';
    if (line.trim() === '') {
      io.stderr(
        identity.kind === 'user'
          ? `Hi there, ${identity.user.name}! You've successfully authenticated, but RepoHost does not provide shell access.\n`
          : `Hi there! You've successfully authenticated with the deploy key named ${identity.key.name}, but RepoHost does not provide shell access.\n`,
      );
      return 0;
    }
    let lfsCommand: LfsAuthenticateCommand | undefined;
    try {
      lfsCommand = parseLfsAuthenticateCommand(line);
    } catch (error) {
      return fail(io, sshErrorMessage(error));
    }
    if (lfsCommand) {
      // git-lfs asking for a token for the LFS API over HTTP: printed on stdout, as Forgejo's serv does.
      try {
        io.stdout(await answerLfsAuthenticate(host, identity, lfsCommand));
        return 0;
      } catch (error) {
        return fail(io, sshErrorMessage(error, { service: lfsCommand.operation === 'upload' ? 'receive-pack' : 'upload-pack', owner: lfsCommand.owner, name: lfsCommand.name }));
      }
    }
    let command: GitCommand;
    try {
      command = parseGitCommand(line);
    } catch (error) {
      return fail(io, sshErrorMessage(error));
    }
    return await run(host, command, identity, io);
  } finally {
    await host.close();
  }
}

/** Runs the service over the process's stdin and stdout; git is stopped if the client goes away or we are told to stop. */
async function run(host: RepoHost, command: GitCommand, identity: SshIdentity, io: CliIo): Promise<number> {
  const input: Readable = io.stdinStream ?? process.stdin;
  const output: Writable = io.stdoutStream ?? process.stdout;
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error('stopped by a signal'));
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const name of signals) process.once(name, onSignal);
  const onOutputError = () => stop.abort(new Error('the client went away'));
  output.on('error', onOutputError);
  try {
    let session;
    try {
      // Who git runs as (a deploy key: its grant on this repository first), decided by core as for the built-in server.
      // Old names of renamed and transferred repositories are served in place, as Forgejo's serv does.
      const followRenames = host.redirects.followRepo.bind(host.redirects);
      const actor = await host.keys.sshActor(identity, { ...command, followRenames });
      session = await host.transfer.run(actor, { ...command, protocol: io.env.GIT_PROTOCOL, deployKey: identity.kind === 'deploy', followRenames }, input, {
        stateless: false,
        serverSpeaksFirst: true,
        signal: stop.signal,
      });
    } catch (error) {
      if (stop.signal.aborted) return 1;
      return fail(io, sshErrorMessage(error, command));
    }
    session.output.pipe(output, { end: false });
    await new Promise<void>((resolve) => {
      session.output.once('end', resolve);
      session.output.once('close', resolve);
    });
    try {
      // For a push, this settles once the new refs are recorded.
      await session.done;
      return 0;
    } catch {
      // git's own words name paths on the server: the client has already seen what git told it.
      if (stop.signal.aborted) return 1;
      return fail(io, 'Failed to execute git command');
    }
  } finally {
    for (const name of signals) process.off(name, onSignal);
    output.off('error', onOutputError);
    // Nothing more is read: let the process end even though sshd keeps our stdin open.
    input.unpipe();
    input.destroy();
  }
}
