import { generateSecretKey } from '@repohost/core';
import { UsageError, type CliIo } from '../io.js';
import type { GroupCommand, Parsed } from '../command.js';

/** `repohost generate secret SECRET_KEY` (the only secret RepoHost has of Gitea's list). */
export const GENERATE: GroupCommand = {
  name: 'generate',
  summary: 'Generate secrets',
  commands: [
    {
      name: 'secret',
      summary: 'Print a new random secret (SECRET_KEY)',
      args: 'SECRET_KEY',
      description: `Prints a new random secret, as Gitea's \`generate secret\`: for example
  repohost generate secret SECRET_KEY > /etc/repohost/secret_key
with [security] SECRET_KEY_URI = file:/etc/repohost/secret_key in app.ini.
`,
      run: generateSecret,
    },
  ],
};

function generateSecret({ positionals }: Parsed, _global: unknown, io: CliIo): number {
  if (positionals.length !== 1) throw new UsageError('usage: repohost generate secret SECRET_KEY');
  if (positionals[0] !== 'SECRET_KEY') throw new UsageError(`unknown secret "${positionals[0]}" (RepoHost has SECRET_KEY)`);
  io.stdout(`${generateSecretKey()}\n`);
  return 0;
}
