import { writeFile, rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { RepoHost } from '@repohost/core';
import { startServer } from '@repohost/server';
import { cliSettings, openHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';

export const WEB_HELP = `Usage: repohost web [--port PORT] [--pid FILE] [--quiet]

Starts the server: API at /api/v1, git over HTTP, swagger document at /swagger.v1.json.
  --port, -p PORT   listen on PORT instead of [server] HTTP_PORT
  --pid, -P FILE    write the process id to FILE
  --quiet, -q       print nothing once started
`;

/**
 * Says what start-up repaired, then compares storage with the database in the background (it reads every
 * owner's folder: not worth delaying the first request for) and warns of what an administrator must decide.
 */
function reportStorage(host: RepoHost, io: CliIo): NodeJS.Timeout {
  const { abandonedCreates, finishedRemovals, resynced } = host.reconciled;
  const names = (keys: { owner: string; name: string }[]) => keys.map((k) => `${k.owner}/${k.name}`).join(', ');
  if (abandonedCreates.length) io.stderr(`repaired: removed the storage of ${abandonedCreates.length} interrupted creation(s): ${names(abandonedCreates)}\n`);
  if (finishedRemovals.length) io.stderr(`repaired: finished ${finishedRemovals.length} interrupted deletion(s): ${names(finishedRemovals)}\n`);
  if (resynced.length) io.stderr(`repaired: updated ${resynced.length} repositories after interrupted pushes: ${names(resynced)}\n`);
  // A second later, after the first requests have had their turn: start-up is measured to the first answer.
  const warn = () =>
    host.repoStorage.check().then(
      ({ unadopted, missing }) => {
        if (missing.length) io.stderr(`warning: ${missing.length} repositories have no git storage (their git operations answer 404): ${names(missing)}\n`);
        if (unadopted.length) io.stderr(`warning: ${unadopted.length} unadopted repositories in storage (see /api/v1/admin/unadopted): ${names(unadopted)}\n`);
      },
      (error: unknown) => io.stderr(`warning: comparing storage with the database failed: ${(error as Error).message}\n`),
    );
  return setTimeout(warn, 1000).unref();
}

export async function web(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(WEB_HELP);
    return 0;
  }
  let v;
  try {
    v = parseArgs({
      args,
      options: { port: { type: 'string', short: 'p' }, pid: { type: 'string', short: 'P' }, quiet: { type: 'boolean', short: 'q' } },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let port: number | undefined;
  if (v.port !== undefined) {
    port = Number(v.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number');
  }
  // Given before loading, so a ROOT_URL derived from the port follows it.
  const settings = cliSettings(global, io, port === undefined ? undefined : { server: { HTTP_PORT: port } });
  const host = await openHost(settings, io, { announce: true });
  const server = await startServer(host, { port: settings.server.HTTP_PORT });
  if (v.pid) await writeFile(v.pid, `${process.pid}\n`);
  if (!v.quiet) io.stdout(`RepoHost listening on ${server.url} (ROOT_URL ${settings.server.ROOT_URL}, database ${settings.database.DB_TYPE})\n`);
  io.onListening?.(server.url);
  const storageCheck = reportStorage(host, io);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    io.signal?.addEventListener('abort', stop, { once: true });
    if (!io.signal) {
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }
  });
  clearTimeout(storageCheck);
  await server.close();
  await host.close();
  if (v.pid) await rm(v.pid, { force: true });
  return 0;
}
