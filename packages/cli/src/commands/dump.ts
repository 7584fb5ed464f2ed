import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, mkdtemp, open, readFile, readdir, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create as createTar, extract as extractTar } from 'tar';
import { backupSqlite, type Settings } from '@repohost/core';
import { cliSettings, configFileOf, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import { text, type LeafCommand, type Parsed } from '../command.js';
import { cliVersion } from '../version.js';

/** What a dump holds, at the top of the archive: restore checks it before touching anything. */
interface Manifest {
  format: 1;
  version: string;
  created: string;
  database: 'sqlite3' | 'postgres';
  /** Top-level entries of the archive besides this file. */
  entries: string[];
}

const MANIFEST = 'repohost-dump.json';
const SQLITE_FILE = 'database.sqlite';
const SQL_FILE = 'database.sql';

export const DUMP: LeafCommand = {
  name: 'dump',
  summary: 'Dump the database, repositories and stored files into one .tar.gz archive',
  description: `Writes one archive (.tar.gz, readable by its owner only) holding the database, the repositories, the data folder
([server] APP_DATA_PATH: attachments, avatars, the secret key file, SSH host keys) and app.ini; "repohost restore"
puts it back. SQLite is copied as one consistent snapshot (VACUUM INTO) while the server runs; PostgreSQL through
pg_dump, which must be installed (else the dump stops: not supported without it). The database is copied
first, then the files: a push during the dump may leave a repository ahead of the database, which
"repohost admin repo-sync-releases" and the next push set right; stop the server for an exact copy.
`,
  flags: {
    file: { type: 'string', short: 'f', value: 'FILE', help: 'the archive to write (default: repohost-dump-<unix time>.tar.gz);\nrefused if it exists' },
    'skip-repository': { type: 'boolean', short: 'R', help: 'leave the repositories out' },
    'skip-attachment-data': { type: 'boolean', help: 'leave attachments and release assets out' },
    tempdir: { type: 'string', short: 't', value: 'DIR', help: 'where to stage the database copy (default: the system temporary folder)' },
    quiet: { type: 'boolean', short: 'q', help: 'print nothing but errors' },
  },
  run: dump,
};

export const RESTORE: LeafCommand = {
  name: 'restore',
  summary: 'Restore a dump made by "repohost dump" (server stopped)',
  args: 'FILE',
  description: `Puts back what "repohost dump" wrote: the database, the repositories and the data folder, at the places this
installation's settings name (its app.ini is restored only where there is none). Run it with the server stopped.
An installation that already holds a database, repositories or data is refused unless --force, which deletes
them first. A PostgreSQL dump is loaded with psql into the configured database. Forgejo has no restore command.
`,
  flags: {
    force: { type: 'boolean', help: 'replace the database, repositories and data folder this installation has' },
    quiet: { type: 'boolean', short: 'q', help: 'print nothing but errors' },
  },
  run: restore,
};

/** Runs a PostgreSQL client tool with the connection of `[database]`; resolves to its exit code and stderr. */
function runPg(tool: 'pg_dump' | 'psql', args: string[], db: Settings['database']): Promise<{ code: number; stdout: string; stderr: string }> {
  const [host, port] = db.HOST.startsWith('/') ? [db.HOST, undefined] : db.HOST.split(':');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGHOST: host,
    ...(port ? { PGPORT: port } : {}),
    PGUSER: db.USER,
    PGPASSWORD: db.PASSWD,
    PGDATABASE: db.NAME,
    PGSSLMODE: db.SSL_MODE === 'disable' ? 'disable' : db.SSL_MODE,
    // The tables live in [database] SCHEMA when one is set, as the server looks for them.
    ...(db.SCHEMA ? { PGOPTIONS: `-c search_path=${db.SCHEMA}` } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new UsageError(`${tool} is not installed: PostgreSQL databases are dumped and restored with it (not supported without)`) : error),
    );
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString().trim() }));
  });
}

const isInside = (child: string, parent: string) => {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/** The database's own files, which the data folder's copy leaves out (the snapshot stands for them). */
function databaseFiles(settings: Settings): string[] {
  if (settings.database.DB_TYPE === 'postgres') return [];
  return ['', '-wal', '-shm', '-journal'].map((suffix) => settings.database.PATH + suffix);
}

async function dump({ values }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  const settings = cliSettings(global, io);
  const say = values.quiet ? () => undefined : (line: string) => io.stdout(`${line}\n`);
  const target = path.resolve(io.cwd, text(values, 'file') ?? `repohost-dump-${Math.floor(Date.now() / 1000)}.tar.gz`);
  const staging = await mkdtemp(path.join(path.resolve(io.cwd, text(values, 'tempdir') ?? tmpdir()), 'repohost-dump-'));
  try {
    const dbType = settings.database.DB_TYPE === 'postgres' ? 'postgres' : 'sqlite3';
    // The database first: the files copied after it may only be newer (see the help).
    if (dbType === 'postgres') {
      const result = await runPg('pg_dump', ['--no-owner', '--no-privileges', '--clean', '--if-exists', ...(settings.database.SCHEMA ? ['--schema', settings.database.SCHEMA] : []), '--file', path.join(staging, SQL_FILE)], settings.database);
      if (result.code !== 0) throw new UsageError(`pg_dump failed: ${result.stderr}`);
    } else {
      if (!existsSync(settings.database.PATH)) throw new UsageError(`there is no database at ${settings.database.PATH}`);
      await backupSqlite(settings.database, path.join(staging, SQLITE_FILE));
    }
    say(`Dumped the database (${dbType})`);

    // The folders go in under fixed names through links that tar follows, so restore need not know the old paths.
    const entries = [dbType === 'postgres' ? SQL_FILE : SQLITE_FILE];
    const configFile = configFileOf(global, io);
    if (existsSync(configFile)) {
      await copyFile(configFile, path.join(staging, 'app.ini'));
      entries.push('app.ini');
    }
    const data = settings.server.APP_DATA_PATH;
    if (existsSync(data)) {
      await symlink(data, path.join(staging, 'data'));
      entries.push('data');
    }
    const repos = settings.repository.ROOT;
    if (!values['skip-repository'] && existsSync(repos)) {
      await symlink(repos, path.join(staging, 'repositories'));
      entries.push('repositories');
    }
    const manifest: Manifest = { format: 1, version: cliVersion(), created: new Date().toISOString(), database: dbType, entries };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);

    // Left out: the live database files, the repositories inside the data folder (their own entry), git's
    // scratch space (.trash) and the hooks (written again at the first push), and attachments when asked.
    const skipped = new Set([
      ...databaseFiles(settings).map((f) => path.join('data', path.relative(data, f))),
      ...(isInside(repos, data) ? [path.join('data', path.relative(data, repos))] : []),
      path.join('repositories', '.trash'),
      path.join('repositories', '.hooks'),
      ...(values['skip-attachment-data'] ? [path.join('data', 'attachments')] : []),
    ]);
    // Readable by the owner only: it holds the database and the secret key.
    await (await open(target, 'wx', 0o600)).close();
    try {
      await createTar(
        {
          gzip: true,
          file: target,
          cwd: staging,
          follow: true,
          portable: true,
          filter: (entry) => !skipped.has(path.normalize(entry).replace(/\/$/, '')),
        },
        [MANIFEST, ...entries],
      );
    } catch (error) {
      await rm(target, { force: true });
      throw error;
    }
    say(`Wrote ${target} (${entries.join(', ')})`);
    return 0;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function isEmptyFolder(folder: string): Promise<boolean> {
  try {
    return (await readdir(folder)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Moves `from` to `to` (which must not exist), across file systems too. */
async function move(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, preserveTimestamps: true });
    await rm(from, { recursive: true, force: true });
  }
}

async function restore({ values, positionals }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('name the dump to restore: repohost restore FILE');
  const archive = path.resolve(io.cwd, positionals[0]!);
  if (!existsSync(archive)) throw new UsageError(`${archive} does not exist`);
  const settings = cliSettings(global, io);
  const say = values.quiet ? () => undefined : (line: string) => io.stdout(`${line}\n`);
  const data = settings.server.APP_DATA_PATH;
  const repos = settings.repository.ROOT;
  const postgres = settings.database.DB_TYPE === 'postgres';

  // Refuse before extracting anything: what is there now would be lost.
  const occupied: string[] = [];
  if (!(await isEmptyFolder(data))) occupied.push(data);
  if (!isInside(repos, data) && !(await isEmptyFolder(repos))) occupied.push(repos);
  if (!postgres && !isInside(settings.database.PATH, data) && ((await stat(settings.database.PATH).catch(() => undefined))?.size ?? 0) > 0) occupied.push(settings.database.PATH);
  if (postgres) {
    const tables = await runPg('psql', ['-tA', '-v', 'ON_ERROR_STOP=1', '-c', 'SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()'], settings.database);
    if (tables.code !== 0) throw new UsageError(`psql failed: ${tables.stderr}`);
    if (Number(tables.stdout.trim()) > 0) occupied.push(`the PostgreSQL database ${settings.database.NAME}${settings.database.SCHEMA ? ` (schema ${settings.database.SCHEMA})` : ''}`);
  }
  if (occupied.length > 0 && !values.force) {
    throw new UsageError(`this installation is not empty (${occupied.join('; ')}): restoring would replace it; add --force to do so`);
  }

  // Extracted beside the data folder, so that moving it into place is a rename.
  await mkdir(path.dirname(data), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(data), '.repohost-restore-'));
  try {
    try {
      await extractTar({ file: archive, cwd: staging, strict: true });
    } catch (error) {
      throw new UsageError(`${archive} is not a dump made by "repohost dump" (${(error as Error).message})`);
    }
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(path.join(staging, MANIFEST), 'utf8')) as Manifest;
    } catch {
      throw new UsageError(`${archive} is not a dump made by "repohost dump" (no ${MANIFEST})`);
    }
    if (manifest.format !== 1) throw new UsageError(`${archive} has a dump format this version does not know (${String(manifest.format)})`);
    if ((manifest.database === 'postgres') !== postgres) {
      throw new UsageError(`the dump holds a ${manifest.database} database, this installation uses ${settings.database.DB_TYPE}: set [database] DB_TYPE to match`);
    }

    if (values.force) {
      for (const folder of [data, repos]) await rm(folder, { recursive: true, force: true });
      for (const file of databaseFiles(settings)) await rm(file, { force: true });
    }
    if (existsSync(path.join(staging, 'data'))) await move(path.join(staging, 'data'), data);
    await mkdir(data, { recursive: true, mode: 0o700 });
    if (existsSync(path.join(staging, 'repositories'))) {
      await rm(repos, { recursive: true, force: true });
      await move(path.join(staging, 'repositories'), repos);
    }
    if (postgres) {
      const loaded = await runPg('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-f', path.join(staging, SQL_FILE)], settings.database);
      if (loaded.code !== 0) throw new UsageError(`psql failed loading the database: ${loaded.stderr}`);
    } else {
      await move(path.join(staging, SQLITE_FILE), settings.database.PATH);
      await chmod(settings.database.PATH, 0o600);
    }
    const configFile = configFileOf(global, io);
    if (existsSync(path.join(staging, 'app.ini'))) {
      if (existsSync(configFile)) say(`Kept ${configFile}; the dump's app.ini was not restored`);
      else await move(path.join(staging, 'app.ini'), configFile);
    }
    say(`Restored ${archive} (made by RepoHost ${manifest.version} on ${manifest.created}): database, ${manifest.entries.filter((e) => e !== SQL_FILE && e !== SQLITE_FILE).join(', ')}`);
    return 0;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
