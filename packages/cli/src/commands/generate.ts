import { generateSecretKey } from '@repohost/core';
import { UsageError, type CliIo } from '../io.js';

export const GENERATE_HELP = `Usage: repohost generate secret SECRET_KEY

Prints a new random secret, as Gitea's \`generate secret\`: for example
  repohost generate secret SECRET_KEY > /etc/repohost/secret_key
with [security] SECRET_KEY_URI = file:/etc/repohost/secret_key in app.ini.
`;

/** `repohost generate secret SECRET_KEY` (the only secret RepoHost has of Gitea's list). */
export function generate(args: string[], io: CliIo): number {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(GENERATE_HELP);
    return 0;
  }
  if (args[0] !== 'secret' || args.length !== 2) throw new UsageError('usage: repohost generate secret SECRET_KEY');
  if (args[1] !== 'SECRET_KEY') throw new UsageError(`unknown secret "${args[1]}" (RepoHost has SECRET_KEY)`);
  io.stdout(`${generateSecretKey()}\n`);
  return 0;
}
