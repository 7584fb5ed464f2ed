import { SYSTEM, isOrganization, userActor, type Job, type RepoHost, type User } from '@repohost/core';
import { withHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import { required } from './admin-user.js';
import type { LeafCommand, Parsed } from '../command.js';

/** `repohost admin repo …`. */
export const ADMIN_REPO_MIGRATE: LeafCommand = {
  name: 'migrate',
  summary: 'Migrate a repository from a git address (or a Gitea/Forgejo instance), showing progress',
  flags: {
    'clone-addr': { type: 'string', value: 'URL', help: 'address to clone (required)' },
    owner: { type: 'string', value: 'NAME', help: 'user or organization that will own the repository (required)' },
    name: { type: 'string', value: 'NAME', help: 'name of the new repository (required)' },
    user: { type: 'string', value: 'NAME', help: 'account doing the migration (default: the owner; required for an organization)' },
    'auth-username': { type: 'string', value: 'USER', help: 'user name for the remote' },
    'auth-password': { type: 'string', value: 'PASSWORD', help: 'password for the remote' },
    'auth-token': { type: 'string', value: 'TOKEN', help: 'token for the remote' },
    mirror: { type: 'boolean', help: 'keep it a pull mirror' },
    'mirror-interval': { type: 'string', value: 'DURATION', help: 'how often the mirror syncs (Go duration, e.g. 8h)' },
    private: { type: 'boolean', help: 'make the repository private' },
    description: { type: 'string', value: 'TEXT', help: 'its description' },
    service: { type: 'string', value: 'NAME', help: 'git, gitea or forgejo (the others take the flags below)' },
    issues: { type: 'boolean', help: 'with gitea/forgejo: also issues' },
    labels: { type: 'boolean', help: 'with gitea/forgejo: also labels' },
    milestones: { type: 'boolean', help: 'with gitea/forgejo: also milestones' },
    releases: { type: 'boolean', help: 'with gitea/forgejo: also releases' },
    'pull-requests': { type: 'boolean', help: 'with gitea/forgejo: also pull requests' },
    wiki: { type: 'boolean', help: 'with gitea/forgejo: also the wiki' },
  },
  run: migrateRepo,
};

const BAR_WIDTH = 30;
const POLL_MS = 200;

/** One line of progress: a bar when the job knows its total, else the step it is at. */
export function progressLine(job: Pick<Job, 'progress_done' | 'progress_total' | 'progress_message' | 'status'>): string {
  const { progress_done: done, progress_total: total, progress_message: message } = job;
  if (total > 0) {
    const ratio = Math.min(1, done / total);
    const filled = Math.round(ratio * BAR_WIDTH);
    return `[${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${message} (${done}/${total})`;
  }
  return `[${' '.repeat(BAR_WIDTH)}] ${message || job.status}`;
}

async function migrateRepo({ values }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  const cloneAddr = required(values, 'clone-addr');
  const ownerName = required(values, 'owner');
  const name = required(values, 'name');
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : undefined);
  const flag = (key: string) => (values[key] === true ? true : undefined);
  return withHost(global, io, async (host) => {
    const owner = await host.users.resolve(SYSTEM, ownerName);
    const doer = await doerOf(host, owner, text('user'));
    const started = await host.migrations.start(userActor(doer), {
      clone_addr: cloneAddr,
      repo_name: name,
      repo_owner: owner.name,
      auth_username: text('auth-username'),
      auth_password: text('auth-password'),
      auth_token: text('auth-token'),
      mirror: flag('mirror'),
      mirror_interval: text('mirror-interval'),
      private: flag('private'),
      description: text('description'),
      service: text('service') as never,
      issues: flag('issues'),
      labels: flag('labels'),
      milestones: flag('milestones'),
      releases: flag('releases'),
      pull_requests: flag('pull-requests'),
      wiki: flag('wiki'),
    });
    // This process runs the job (a running server may take it first; either way its progress is in the database).
    host.jobs.start();
    let last = '';
    let job = started.job;
    while (job.status !== 'done' && job.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      job = (await host.jobs.get(job.id)) ?? { ...job, status: 'failed', error: 'the migration job disappeared' };
      const line = progressLine(job);
      if (line !== last) io.stderr(`\r${line.padEnd(last.length)}`);
      last = line;
    }
    if (last) io.stderr('\n');
    if (job.status === 'failed') {
      io.stderr(`Error: ${job.error}\n`);
      return 1;
    }
    io.stdout(`Migrated ${owner.name}/${started.access.repo.name}\n`);
    return 0;
  });
}

/** Who migrates: `--user`, else the owner itself (an organization needs `--user`). */
async function doerOf(host: RepoHost, owner: User, userName: string | undefined): Promise<User> {
  if (userName) return host.users.resolve(SYSTEM, userName);
  if (isOrganization(owner)) throw new UsageError('--user is required when the owner is an organization');
  return owner;
}
