/**
 * What an SSH client asks to run, read the way both the built-in server and `repohost serv` (OpenSSH's
 * `SSH_ORIGINAL_COMMAND`) read it: `git-upload-pack '/owner/repo.git'`, `git-receive-pack 'owner/repo.git'` or
 * `git upload-pack …`. Anything else is refused before any git process exists.
 */
import { isRepoHostError, LfsService, NotFoundError, trimEnd, trimStart, type GitService, type RepoHost, type SshIdentity } from '@repohost/core';

export interface GitCommand {
  service: GitService;
  owner: string;
  /** Repository name without `.git`. */
  name: string;
}

/** A command the server will not run; `message` is what the client is told. */
export class SshCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SshCommandError';
  }
}

/** The services by the name clients ask for: a Map, so a client's word can only pick one of these. */
const VERBS: ReadonlyMap<string, GitService> = new Map([
  ['git-upload-pack', 'upload-pack'],
  ['git-receive-pack', 'receive-pack'],
]);

/** Far longer than any real git command line; a longer one is refused unread. */
const MAX_COMMAND_LENGTH = 4096;
/** Owner and repository names: word characters, dashes and dots (Forgejo's check on the repository part). */
const NAME = /^[\w.-]+$/;

/**
 * Splits a command line into words as a POSIX shell would for the quoting git uses: single quotes, double quotes
 * and backslash escapes. No expansion of any kind.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new SshCommandError('Error parsing arguments: unterminated quote');
  if (inWord) words.push(word);
  return words;
}

/** Reads a git command line, or throws SshCommandError with the reason to give the client. */
export function parseGitCommand(line: string): GitCommand {
  if (line.length > MAX_COMMAND_LENGTH) throw new SshCommandError('Command too long');
  let words = splitCommandLine(line);
  // `git upload-pack 'path'`: the dashless form some clients send.
  if (words[0] === 'git' && words.length >= 2) words = [`git-${words[1]}`, ...words.slice(2)];
  const verb = words[0] ?? '';
  const service = VERBS.get(verb);
  if (!service) throw new SshCommandError(verb === '' ? 'No command given' : `Unknown git command: ${verb}`);
  if (words.length !== 2) throw new SshCommandError(words.length < 2 ? 'Too few arguments' : 'Too many arguments');
  return { service, ...repoPathOf(words[1]!) };
}

/** `owner/repo(.git)` with optional slashes around it, or SshCommandError. */
function repoPathOf(word: string): { owner: string; name: string } {
  const parts = trimEnd(trimStart(word, '/'), '/').split('/');
  if (parts.length !== 2) throw new SshCommandError(`Invalid repository path: ${word}`);
  const owner = parts[0]!;
  const name = parts[1]!.replace(/\.git$/i, '');
  if (!NAME.test(owner) || !NAME.test(name)) throw new SshCommandError(`Invalid repository path: ${word}`);
  return { owner, name };
}

/** `git-lfs-authenticate <owner/repo> <upload|download>`: the LFS client asking for a token over SSH. */
export interface LfsAuthenticateCommand {
  owner: string;
  name: string;
  operation: string;
}

/** The command when it is `git-lfs-authenticate …` (SshCommandError when malformed); undefined for any other. */
export function parseLfsAuthenticateCommand(line: string): LfsAuthenticateCommand | undefined {
  if (line.length > MAX_COMMAND_LENGTH) throw new SshCommandError('Command too long');
  const words = splitCommandLine(line);
  if (words[0] !== 'git-lfs-authenticate') return undefined;
  if (words.length < 3) throw new SshCommandError('Too few arguments');
  if (words.length > 3) throw new SshCommandError('Too many arguments');
  return { ...repoPathOf(words[1]!), operation: words[2]! };
}

/**
 * Answers `git-lfs-authenticate` for an SSH identity (the built-in server and `repohost serv` alike): the JSON line
 * git-lfs reads (`{"header": {"Authorization": "Bearer …"}, "href": …, "expires_at": …}`), after the checks an
 * HTTP request of that operation meets. A deploy key acts as it does for git (its grant first, then the owner).
 */
export async function answerLfsAuthenticate(host: RepoHost, identity: SshIdentity, command: LfsAuthenticateCommand): Promise<string> {
  const service: GitService = command.operation === 'upload' ? 'receive-pack' : 'upload-pack';
  const actor = await host.keys.sshActor(identity, { owner: command.owner, name: command.name, service });
  const answer = await host.service(LfsService).sshAuthenticate(actor, command.owner, command.name, command.operation);
  return `${JSON.stringify(answer)}\n`;
}

/**
 * The message an SSH client sees for an error thrown while serving `command` (printed after the app name, as
 * Forgejo prints `Forgejo: …`). Core's errors say what the user may know; anything else is an internal error whose
 * details stay in the server's log.
 */
export function sshErrorMessage(error: unknown, command?: GitCommand): string {
  if (error instanceof SshCommandError) return error.message;
  if (error instanceof NotFoundError) return command ? `Cannot find repository: ${command.owner}/${command.name}` : error.message;
  if (isRepoHostError(error)) return error.message;
  return 'Internal Server Error';
}
