import { cliSettings, openHost, type GlobalOptions } from '../config.js';
import type { CliIo } from '../io.js';
import type { LeafCommand, Parsed } from '../command.js';

export const MIGRATE: LeafCommand = {
  name: 'migrate',
  summary: 'Migrate the database',
  description: 'Brings the database schema up to date (the server does it at start too) and says what ran.\n',
  run: migrate,
};

/** `repohost migrate`: brings the database schema up to date and says what ran. */
async function migrate(_input: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  const host = await openHost(cliSettings(global, io), io, { migrate: false });
  try {
    const applied = await host.migrate();
    io.stdout(applied.length === 0 ? 'Database is up to date.\n' : `Applied migrations:\n${applied.map((m) => `  ${m}\n`).join('')}`);
    return 0;
  } finally {
    await host.close();
  }
}
