import { SYSTEM, isOrganization, userActor, type Job, type RepoHost, type User } from '@repohost/core';
import { withHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import { parse, required } from './admin-user.js';

export const ADMIN_REPO_HELP = `Usage: repohost admin repo <command> [options]

Commands:
  migrate                 Migrate a repository from a git address (or a Gitea/Forgejo instance), showing progress
      --clone-addr URL        address to clone (required)
      --owner NAME            user or organization that will own the repository (required)
      --name NAME             name of the new repository (required)
      --user NAME             account doing the migration (default: the owner; required for an organization)
      --auth-username U  --auth-password P  --auth-token T   credentials for the remote
      --mirror                keep it a pull mirror   --mirror-interval D (Go duration, e.g. 8h)
      --private  --description TEXT
      --service git|gitea|forgejo   with gitea/forgejo: --issues --labels --milestones --releases --pull-requests --wiki
`;

/** `repohost admin repo …`. */
export async function adminRepo(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'migrate') return migrateRepo(rest, global, io);
  io.stdout(ADMIN_REPO_HELP);
  if (command === undefined) return 1;
  io.stderr(`unknown command "admin repo ${command}"\n`);
  return 1;
}

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

async function migrateRepo(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const values = parse(args, {
    'clone-addr': { type: 'string' },
    owner: { type: 'string' },
    name: { type: 'string' },
    user: { type: 'string' },
    'auth-username': { type: 'string' },
    'auth-password': { type: 'string' },
    'auth-token': { type: 'string' },
    mirror: { type: 'boolean' },
    'mirror-interval': { type: 'string' },
    private: { type: 'boolean' },
    description: { type: 'string' },
    service: { type: 'string' },
    issues: { type: 'boolean' },
    labels: { type: 'boolean' },
    milestones: { type: 'boolean' },
    releases: { type: 'boolean' },
    'pull-requests': { type: 'boolean' },
    wiki: { type: 'boolean' },
  });
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
