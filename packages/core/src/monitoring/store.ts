import { sql } from 'kysely';
import { Store, type Schema } from '../storage/index.js';

/**
 * The tables counted for `/metrics`. Read only, never written: each is its domain's, and what is counted here is
 * `count(*)` and a few aggregates, as Forgejo's statistics read them (`models/activities/statistic.go`).
 */
type CountedTables = Pick<
  Schema,
  | 'user'
  | 'public_key'
  | 'repository'
  | 'watch'
  | 'star'
  | 'issue'
  | 'issue_label'
  | 'label'
  | 'comment'
  | 'follow'
  | 'mirror'
  | 'release'
  | 'login_source'
  | 'webhook'
  | 'milestone'
  | 'hook_task'
  | 'team'
  | 'attachment'
  | 'job'
>;

/** Forgejo's statistics counters, as its `/metrics` collector reports them (`gitea_*`). */
export interface SiteStatistics {
  users: number;
  organizations: number;
  publicKeys: number;
  repositories: number;
  watches: number;
  stars: number;
  issues: number;
  issuesOpen: number;
  issuesClosed: number;
  comments: number;
  follows: number;
  mirrors: number;
  releases: number;
  loginSources: number;
  webhooks: number;
  milestones: number;
  labels: number;
  hookTasks: number;
  teams: number;
  attachments: number;
}

/** Work waiting in the database: durable jobs and webhook deliveries. */
export interface QueueStatistics {
  /** Jobs queued (due or scheduled later). */
  jobsQueued: number;
  /** Jobs a process holds. */
  jobsRunning: number;
  /** `run_after` of the oldest queued job already due (unix seconds), null when none is due. */
  oldestDueJobUnix: number | null;
  /** Webhook deliveries not yet made (and not given up). */
  hookTasksWaiting: number;
  /** `next_attempt` of the oldest waiting delivery already due (unix seconds), null when none is due. */
  oldestDueHookTaskUnix: number | null;
}

export interface PoolStatistics {
  total: number;
  idle: number;
  waiting: number;
}

const num = (value: unknown): number => Number(value ?? 0);
const unixOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export class MonitoringStore extends Store<CountedTables> {
  /** A round trip to the database. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** The connection pool's state (PostgreSQL); undefined for SQLite, which has one connection. */
  pool(): PoolStatistics | undefined {
    return this.scope.storage.poolStats?.();
  }

  /** Every counter in one statement: one `count(*)` per table, one round trip and one connection. */
  async statistics(): Promise<SiteStatistics> {
    const row = await this.db
      .selectNoFrom((eb) => {
        const count = <T extends keyof CountedTables>(table: T) => eb.selectFrom(table as 'user').select(eb.fn.countAll<number | string>().as('n'));
        return [
          count('user').where('type', '=', sql.lit(0)).as('users'),
          count('user').where('type', '=', sql.lit(1)).as('organizations'),
          count('public_key').as('publicKeys'),
          count('repository').as('repositories'),
          count('watch').as('watches'),
          count('star').as('stars'),
          eb.selectFrom('issue').select(eb.fn.countAll<number | string>().as('n')).where('is_closed', '=', 0).as('issuesOpen'),
          eb.selectFrom('issue').select(eb.fn.countAll<number | string>().as('n')).where('is_closed', '<>', 0).as('issuesClosed'),
          count('comment').as('comments'),
          count('follow').as('follows'),
          count('mirror').as('mirrors'),
          count('release').as('releases'),
          count('login_source').as('loginSources'),
          count('webhook').as('webhooks'),
          count('milestone').as('milestones'),
          count('label').as('labels'),
          count('hook_task').as('hookTasks'),
          count('team').as('teams'),
          count('attachment').as('attachments'),
        ];
      })
      .executeTakeFirstOrThrow();
    const value = row as Record<string, unknown>;
    const stats = {} as SiteStatistics;
    for (const key of Object.keys(value) as (keyof SiteStatistics)[]) stats[key] = num(value[key]);
    stats.issues = stats.issuesOpen + stats.issuesClosed;
    return stats;
  }

  /** Issues per label name (Forgejo's `issues_by_label`): one row per distinct name. */
  async issuesByLabel(): Promise<{ label: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('issue_label')
      .leftJoin('label', 'label.id', 'issue_label.label_id')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), 'label.name as label'])
      .groupBy('label.name')
      .execute();
    return rows.map((row) => ({ label: row.label ?? '', count: num(row.n) }));
  }

  /** Issues per repository (Forgejo's `issues_by_repository`), as `owner/name`. */
  async issuesByRepository(): Promise<{ repository: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('issue')
      .leftJoin('repository', 'repository.id', 'issue.repo_id')
      .leftJoin('user', 'user.id', 'repository.owner_id')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), 'user.name as owner', 'repository.name as name'])
      .groupBy(['user.name', 'repository.name'])
      .execute();
    return rows.map((row) => ({ repository: `${row.owner ?? ''}/${row.name ?? ''}`, count: num(row.n) }));
  }

  /** Jobs and webhook deliveries waiting, and the oldest due of each, in one statement. */
  async queues(now: number): Promise<QueueStatistics> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb.selectFrom('job').select(eb.fn.countAll<number | string>().as('n')).where('status', '=', 'queued').as('jobsQueued'),
        eb.selectFrom('job').select(eb.fn.countAll<number | string>().as('n')).where('status', '=', 'running').as('jobsRunning'),
        eb
          .selectFrom('job')
          .select((qb) => qb.fn.min('run_after_unix').as('n'))
          .where('status', '=', 'queued')
          .where('run_after_unix', '<=', now)
          .as('oldestDueJobUnix'),
        eb.selectFrom('hook_task').select(eb.fn.countAll<number | string>().as('n')).where('is_delivered', '=', 0).as('hookTasksWaiting'),
        eb
          .selectFrom('hook_task')
          .select((qb) => qb.fn.min('next_attempt_unix').as('n'))
          .where('is_delivered', '=', 0)
          .where('next_attempt_unix', '<=', now)
          .as('oldestDueHookTaskUnix'),
      ])
      .executeTakeFirstOrThrow();
    const value = row as Record<string, unknown>;
    return {
      jobsQueued: num(value.jobsQueued),
      jobsRunning: num(value.jobsRunning),
      oldestDueJobUnix: unixOrNull(value.oldestDueJobUnix),
      hookTasksWaiting: num(value.hookTasksWaiting),
      oldestDueHookTaskUnix: unixOrNull(value.oldestDueHookTaskUnix),
    };
  }
}
