import { existsSync } from 'node:fs';
import path from 'node:path';
import { NotSupportedError, RepoHost, SYSTEM, type RepoKey } from '@repohost/core';
import { cliSettings, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import type { GroupCommand, Parsed } from '../command.js';
import { HOOKS_FOLDER, hookFiles } from './admin-regenerate.js';

/** What one check found: problems make the exit code 1 (unless fixed). */
interface Finding {
  problems: string[];
  notes: string[];
}

interface Check {
  name: string;
  title: string;
  run(host: RepoHost, fix: boolean): Promise<Finding>;
}

const names = (keys: readonly RepoKey[]) => keys.map((k) => `${k.owner}/${k.name}`).join(', ');

/**
 * The checks RepoHost runs at start (and as recurring tasks), runnable by hand. Forgejo's `doctor check` has its
 * own list (most about its web UI and database tables); these are RepoHost's.
 */
const CHECKS: readonly Check[] = [
  {
    name: 'storage-consistency',
    title: 'Git storage and the database agree',
    async run(host, fix) {
      const notes: string[] = [];
      if (fix) {
        // What `RepoHost.open` does before serving: finish or undo the changes a crash interrupted.
        const r = await host.repoStorage.reconcile();
        const repaired: [string, RepoKey[]][] = [
          ['removed the storage of interrupted creations', r.abandonedCreates],
          ['finished interrupted deletions', r.finishedRemovals],
          ['updated repositories after interrupted pushes', r.resynced],
          ['moved back storage of interrupted renames', r.undoneRenames],
        ];
        for (const [what, keys] of repaired) if (keys.length) notes.push(`${what}: ${names(keys)}`);
        const blobs = await host.attachments.reconcile();
        if (blobs) notes.push(`removed ${blobs} blob(s) of interrupted uploads or deletions`);
      }
      const { missing, unadopted } = await host.repoStorage.check();
      const problems: string[] = [];
      if (missing.length) problems.push(`${missing.length} repositories have no git storage: ${names(missing)} (cron tasks reinit_missing_repos or delete_missing_repos decide)`);
      if (unadopted.length) problems.push(`${unadopted.length} unadopted repositories in storage: ${names(unadopted)} (see /api/v1/admin/unadopted)`);
      return { problems, notes };
    },
  },
  {
    name: 'hooks',
    title: 'The server hooks every push runs are in place',
    async run(host, fix) {
      const folder = path.join(host.settings.repository.ROOT, HOOKS_FOLDER);
      const files = await hookFiles(folder);
      const missing = files.filter((f) => !f.present).map((f) => f.name);
      if (!missing.length) return { problems: [], notes: [] };
      // None at all is an installation that never took a push: the first one writes them.
      if (!fix && missing.length === files.length && !existsSync(folder)) return { problems: [], notes: [`not written yet: the first push writes them in ${folder}`] };
      if (!fix) return { problems: [`missing or not executable in ${folder}: ${missing.join(', ')} (written again at the next push, or with --fix)`], notes: [] };
      try {
        await host.git.syncHooks();
      } catch (error) {
        if (error instanceof NotSupportedError) return { problems: [], notes: ['the git backend runs no hooks'] };
        throw error;
      }
      return { problems: [], notes: [`wrote ${missing.join(', ')} in ${folder}`] };
    },
  },
  {
    name: 'repo-health',
    title: 'Every repository passes git fsck (the repo_health_check task)',
    async run(host) {
      const task = 'repo_health_check';
      const before = (await host.cron.state(task))?.exec_times ?? 0;
      await host.cron.run(SYSTEM, task);
      await host.cron.idle();
      const state = await host.cron.state(task);
      // Claimed by a running server at the same moment: its run reports in its log.
      if (!state || state.exec_times === before) return { problems: [], notes: ['running in another process now: not run here'] };
      if (state.last_error) return { problems: [state.last_error], notes: [] };
      const failed = /; \d+ failed: /.test(state.last_message);
      return failed ? { problems: [state.last_message], notes: [] } : { problems: [], notes: [state.last_message] };
    },
  },
];

/** `repohost doctor check`, Forgejo's flags. */
export const DOCTOR: GroupCommand = {
  name: 'doctor',
  summary: 'Diagnose and optionally fix problems',
  commands: [
    {
      name: 'check',
      summary: 'Run the consistency checks (those of start-up) and report what they found',
      description: `Runs RepoHost's consistency checks and reports what each found: exit code 1 when a problem remains.
Without --fix it repairs nothing and may run beside the server. With --fix it also repairs what start-up
repairs (changes a crash interrupted, blobs without a row, the server hooks): stop the server first, since a
change it is making looks interrupted from here.
`,
      flags: {
        list: { type: 'boolean', help: 'list the checks and exit' },
        run: { type: 'string', multiple: true, value: 'NAME', help: 'run this check (repeatable; default: all)' },
        all: { type: 'boolean', help: 'run every check (the default)' },
        default: { type: 'boolean', help: 'run the default checks (every one)' },
        fix: { type: 'boolean', help: 'repair what can be repaired (server stopped)' },
      },
      run: doctorCheck,
    },
  ],
};

async function doctorCheck({ values }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  if (values.list) {
    for (const check of CHECKS) io.stdout(`${check.name.padEnd(22)}${check.title}\n`);
    return 0;
  }
  const wanted = (values.run as string[] | undefined) ?? [];
  const unknown = wanted.filter((name) => !CHECKS.some((c) => c.name === name));
  if (unknown.length) throw new UsageError(`unknown check(s): ${unknown.join(', ')} (see --list)`);
  const checks = wanted.length && !values.all ? CHECKS.filter((c) => wanted.includes(c.name)) : CHECKS;
  const fix = values.fix === true;
  // Opening repairs nothing: without --fix the checks only look (and the schema is left to the server); with it
  // the database is migrated first, as at start, and the checks repair in order.
  const host = await RepoHost.open({ settings: cliSettings(global, io), migrate: fix, reconcile: false });
  let problems = 0;
  try {
    for (const check of checks) {
      io.stdout(`[${check.name}] ${check.title}\n`);
      const found = await check.run(host, fix);
      for (const note of found.notes) io.stdout(` - ${note}\n`);
      for (const problem of found.problems) io.stdout(` - ERROR: ${problem}\n`);
      if (!found.problems.length) io.stdout(' - OK\n');
      problems += found.problems.length;
    }
  } finally {
    await host.close();
  }
  io.stdout(problems ? `${problems} problem(s) found.\n` : 'All checks passed.\n');
  return problems ? 1 : 0;
}
