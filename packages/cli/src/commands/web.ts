import { writeFile, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { ConfigError, type RepoHost } from '@repohost/core';
import { startServer } from '@repohost/server';
import { cliSettings, openHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import type { LeafCommand, Parsed } from '../command.js';

export const WEB: LeafCommand = {
  name: 'web',
  summary: 'Start the server',
  description:
    'Starts the server: API at /api/v1, git over HTTP (and SSH when [server] START_SSH_SERVER), swagger document at\n/swagger.v1.json. It listens on [server] HTTP_ADDR (default 0.0.0.0, every interface) and HTTP_PORT (3000).\nWith --workers N (or [server] WORKERS) N processes serve that port; a worker that dies is started again.\n',
  flags: {
    port: { type: 'string', short: 'p', value: 'PORT', help: 'listen on PORT instead of [server] HTTP_PORT' },
    pid: { type: 'string', short: 'P', value: 'FILE', help: 'write the process id to FILE' },
    quiet: { type: 'boolean', short: 'q', help: 'print nothing once started' },
    workers: { type: 'string', value: 'N', help: 'serve with N processes, 0 for one per CPU, instead of [server] WORKERS (1)' },
  },
  run: web,
};

/**
 * Says what start-up repaired, then compares storage with the database in the background (it reads every
 * owner's folder: not worth delaying the first request for) and warns of what an administrator must decide.
 */
export function reportStorage(host: RepoHost, io: CliIo, checked?: () => void): NodeJS.Timeout {
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
    ).finally(checked);
  return setTimeout(warn, 1000).unref();
}

/**
 * One line for a port that cannot be listened on (another server has it, or it needs privileges), naming the
 * setting that chooses it; undefined for any other error, which is reported as it is.
 */
export function listenFailure(error: unknown, httpPort: number): string | undefined {
  const { code, syscall, address, port } = error as NodeJS.ErrnoException & { address?: string; port?: number };
  // A worker of `--workers` hears of the primary's failure to bind the shared socket.
  if ((syscall !== 'listen' && syscall !== 'bind') || port === undefined) return undefined;
  const http = port === httpPort;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${address ?? 'that address'}: no interface has it; choose another with ${http ? '[server] HTTP_ADDR' : '[server] SSH_LISTEN_HOST'} in app.ini`;
  const why = code === 'EADDRINUSE' ? 'it is already in use (is another server running?)' : code === 'EACCES' ? 'permission denied (ports below 1024 need privileges)' : code;
  const setting = http ? '[server] HTTP_PORT in app.ini, or --port' : '[server] SSH_LISTEN_PORT (or SSH_PORT) in app.ini';
  return `cannot listen on port ${port}${address ? ` of ${address}` : ''}: ${why}; choose another with ${setting}`;
}

/** Set in the environment of the processes `web --workers N` starts: what they serve (see web-cluster.ts). */
export const WORKER_ENV = 'REPOHOST_WEB_WORKER';

async function web({ values }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  if (io.env[WORKER_ENV] !== undefined) return (await import('./web-cluster.js')).runWorker(io);
  const v = values as { port?: string; pid?: string; quiet?: boolean; workers?: string };
  let port: number | undefined;
  if (v.port !== undefined) {
    port = Number(v.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number');
  }
  let workers: number | undefined;
  if (v.workers !== undefined) {
    workers = Number(v.workers);
    if (v.workers.trim() === '' || !Number.isInteger(workers) || workers < 0) throw new UsageError('--workers must be a number of processes (0: one per CPU)');
  }
  // Given before loading, so a ROOT_URL derived from the port follows it.
  const overrides = { ...(port === undefined ? {} : { HTTP_PORT: port }), ...(workers === undefined ? {} : { WORKERS: workers }) };
  const settings = cliSettings(global, io, port === undefined && workers === undefined ? undefined : { server: overrides });
  let count = settings.server.WORKERS === 0 ? availableParallelism() : settings.server.WORKERS;
  // Processes share the database file and the repositories' folders: what lives in one process's memory cannot be.
  const inMemory = settings.database.DB_TYPE === 'sqlite3' && settings.database.PATH === ':memory:' ? '[database] PATH = :memory:' : settings.repository.BACKEND === 'memory' ? '[repository] BACKEND = memory' : undefined;
  if (inMemory && count > 1) {
    if (settings.server.WORKERS !== 0) throw new ConfigError(`--workers (or [server] WORKERS) needs storage the processes share, and ${inMemory} keeps it in one process's memory`);
    count = 1;
  }
  if (count > 1) return (await import('./web-cluster.js')).runPrimary({ settings, global, port, workers: count, pidFile: v.pid, quiet: v.quiet === true }, io);
  const host = await openHost(settings, io, { announce: true });
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(host, { port: settings.server.HTTP_PORT });
  } catch (error) {
    await host.close();
    const message = listenFailure(error, settings.server.HTTP_PORT);
    if (message === undefined) throw error;
    io.stderr(`Error: ${message}\n`);
    return 1;
  }
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
