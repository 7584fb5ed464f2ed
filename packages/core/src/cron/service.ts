/**
 * Recurring tasks (Forgejo's cron). Each task's schedule lives in a `cron_task` row: when it runs next, when it
 * last ran, how often it ran. A restart keeps the schedule (a run due while the server was down happens once at
 * start), and a run is claimed by one conditional UPDATE under a lease, so of several processes on one database
 * exactly one runs each due time, and a manual run (`POST /admin/cron/{task}`) never overlaps a scheduled one.
 */
import type { CoreContext } from '../context.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { clampPage, offsetOf, type Page, type Paging } from '../paging.js';
import { newLeaseOwner, nowUnix } from '../storage/index.js';
import { isoTime } from '../wire.js';
import { parseSchedule, type Schedule } from './schedule.js';
import { CronStore } from './store.js';
import { cronConfig, type CronTaskDefinition } from './tasks.js';
import type { ApiCron } from './schemas.js';
import type { CronTaskRow } from './tables.js';

/** The scheduler looks at the table at least this often (another process may have run or re-planned a task). */
const MAX_SLEEP_MS = 60_000;
/** How long `stop()` waits for aborted runs to return. */
const STOP_GRACE_MS = 5000;
const MAX_TEXT = 4000;

/** A registered task with its settings resolved. */
interface PlannedTask {
  definition: CronTaskDefinition;
  enabled: boolean;
  runAtStart: boolean;
  spec: string;
  /** Undefined when disabled or the schedule cannot be read (then it is not scheduled, only run by hand). */
  schedule: Schedule | undefined;
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

export class CronService {
  readonly owner = newLeaseOwner();
  /** The tasks the domains declare (`register`), in order. */
  private tasks: readonly CronTaskDefinition[] = [];
  private plannedCache: PlannedTask[] | undefined;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private stopped = true;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(private readonly ctx: CoreContext) {}

  /** A run holds its task this long unless renewed (`[repohost] LEASE_SECONDS`; every third of it while running). */
  private get leaseSeconds(): number {
    return this.ctx.settings.repohost.LEASE_SECONDS;
  }

  private get store(): CronStore {
    return this.ctx.store(CronStore);
  }

  /** Sets the tasks (the host gives those of `domains.ts`, once, before anything is scheduled). */
  register(tasks: readonly CronTaskDefinition[]): void {
    this.tasks = tasks;
    this.plannedCache = undefined;
  }

  /** The registered tasks, in order, with their settings. */
  private get planned(): PlannedTask[] {
    if (this.plannedCache) return this.plannedCache;
    const settings = this.ctx.settings;
    this.plannedCache = this.tasks.filter((task) => task.registered?.(settings) ?? true).map((definition) => {
      const config = cronConfig(settings, definition.name);
      const schedule = config.ENABLED ? parseSchedule(config.SCHEDULE) : undefined;
      if (config.ENABLED && !schedule) console.error(`[repohost] [cron.${definition.name}] SCHEDULE: "${config.SCHEDULE}" is not a schedule; the task runs only by hand`);
      return { definition, enabled: config.ENABLED, runAtStart: config.RUN_AT_START, spec: config.SCHEDULE, schedule };
    });
    return this.plannedCache;
  }

  private find(name: string): PlannedTask | undefined {
    return this.planned.find((task) => task.definition.name === name);
  }

  /** The names of the registered tasks, in order. */
  get names(): string[] {
    return this.planned.map((task) => task.definition.name);
  }

  /** `GET /admin/cron`: every registered task, scheduled or not (those show `-` and no next run), in order. */
  async list(actor: Actor, paging: Paging = {}): Promise<Page<ApiCron>> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
    const rows = new Map((await this.store.all()).map((row) => [row.name, row]));
    const all = this.planned.map((task) => this.toApi(task, rows.get(task.definition.name)));
    const page = clampPage(this.ctx.settings, paging);
    return { items: all.slice(offsetOf(page), offsetOf(page) + page.limit), total: all.length };
  }

  private toApi(task: PlannedTask, row: CronTaskRow | undefined): ApiCron {
    const scheduled = task.schedule !== undefined;
    return {
      name: task.definition.name,
      schedule: scheduled ? task.spec : '-',
      next: isoTime(scheduled ? Number(row?.next_unix ?? 0) : 0),
      prev: isoTime(Number(row?.prev_unix ?? 0)),
      exec_times: Number(row?.exec_times ?? 0),
    };
  }

  /**
   * `POST /admin/cron/{task}`: runs a task now, in the background (the call returns at once). A task already
   * running (here or in another process) is not started twice, as in Forgejo.
   */
  async run(actor: Actor, name: string): Promise<void> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
    const task = this.find(name);
    if (!task) throw new NotFoundError();
    if (this.closed) return;
    await this.store.ensure([name], nowUnix());
    void this.runTask(task, false);
  }

  /** Resolves when the runs started in this process so far have finished (tests, embedders). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /** Starts scheduling: plans every enabled task (keeping stored times), runs what is due, then sleeps until the next. */
  start(): void {
    if (!this.stopped || this.closed) return;
    this.stopped = false;
    this.ticking = this.plan()
      .then(() => this.tick())
      .catch((error: unknown) => {
        if (!this.stopped) console.error('[repohost] cron start failed:', error);
        this.sleep(MAX_SLEEP_MS);
      })
      .finally(() => {
        this.ticking = undefined;
      });
  }

  /** Stops scheduling, aborts the runs in progress here and waits briefly for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking?.catch(() => undefined);
    const runs = [...this.running.values()];
    for (const run of runs) run.controller.abort(new Error('the server is shutting down'));
    if (runs.length === 0) return;
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(runs.map((r) => r.done)),
      new Promise<void>((resolve) => {
        grace = setTimeout(resolve, STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(grace);
  }

  /**
   * Plans the schedule and runs every task due now, waiting for them (for embedders that never serve, and tests).
   * Returns the names of the tasks run.
   */
  async runDue(): Promise<string[]> {
    await this.plan();
    return this.runDueTasks(true);
  }

  /**
   * Writes each enabled task's next run: now for RUN_AT_START, else the stored time when the schedule is the one
   * it was computed from (so a time passed while the server was down makes the task run once now), else the next
   * time the schedule gives.
   */
  private async plan(): Promise<void> {
    const now = nowUnix();
    await this.store.ensure(this.names, now);
    for (const task of this.planned) {
      if (!task.schedule) continue;
      const next = Math.floor(task.schedule.next(now * 1000) / 1000);
      if (task.runAtStart) await this.store.plan(task.definition.name, task.spec, now, now, true);
      else await this.store.plan(task.definition.name, task.spec, next, now);
    }
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    await this.runDueTasks(false);
    if (this.stopped) return;
    const rows = await this.store.all();
    const now = Date.now();
    let wait = MAX_SLEEP_MS;
    for (const row of rows) {
      const task = this.find(row.name);
      if (!task?.schedule || Number(row.next_unix) <= 0) continue;
      wait = Math.min(wait, Math.max(0, Number(row.next_unix) * 1000 - now));
    }
    this.sleep(Math.max(wait, 250));
  }

  private sleep(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopped || this.ticking) return;
      this.ticking = this.tick()
        .catch((error: unknown) => {
          if (!this.stopped) console.error('[repohost] cron round failed:', error);
          this.sleep(MAX_SLEEP_MS);
        })
        .finally(() => {
          this.ticking = undefined;
        });
    }, ms);
    this.timer.unref();
  }

  /** Claims and starts every scheduled task due now; waits for them when asked. */
  private async runDueTasks(wait: boolean): Promise<string[]> {
    const now = nowUnix();
    const rows = new Map((await this.store.all()).map((row) => [row.name, row]));
    const started: { name: string; done: Promise<void> }[] = [];
    for (const task of this.planned) {
      const row = rows.get(task.definition.name);
      if (!task.schedule || !row || Number(row.next_unix) <= 0 || Number(row.next_unix) > now) continue;
      if (this.running.has(task.definition.name)) continue;
      const next = Math.floor(task.schedule.next(now * 1000) / 1000);
      const done = this.runTask(task, true, next);
      started.push({ name: task.definition.name, done });
    }
    if (wait) await Promise.all(started.map((s) => s.done));
    return started.map((s) => s.name);
  }

  /** One run: claim (scheduled: only when due; manual: whenever free), run within the time limit, record. */
  private async runTask(task: PlannedTask, scheduled: boolean, next?: number): Promise<void> {
    const name = task.definition.name;
    if (this.running.has(name) || this.closed) return;
    const controller = new AbortController();
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    this.running.set(name, { controller, done });
    try {
      const now = nowUnix();
      const timeoutSeconds = task.definition.timeoutSeconds;
      let claimed = false;
      try {
        claimed = await this.store.claim(name, {
          owner: this.owner,
          now,
          leaseUntil: now + this.leaseSeconds,
          ...(scheduled ? { next } : {}),
        });
      } catch {
        // A write conflict with another process claiming it: theirs.
      }
      if (!claimed) return;
      const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutSeconds} s`)), timeoutSeconds * 1000);
      timer.unref();
      const renewal = setInterval(() => {
        this.store.renew(name, this.owner, nowUnix() + this.leaseSeconds).catch(() => undefined);
      }, (this.leaseSeconds * 1000) / 3);
      renewal.unref();
      let message = '';
      let error = '';
      try {
        message = await task.definition.run(this.ctx, controller.signal);
      } catch (failure) {
        error = failure instanceof Error ? failure.message || failure.name : String(failure);
        if (!this.closed) console.error(`[repohost] cron task ${name} failed:`, failure);
      } finally {
        clearTimeout(timer);
        clearInterval(renewal);
      }
      // Forgejo writes a system notice on success when asked; RepoHost has no notices, so the log gets it.
      if (error === '' && cronConfig(this.ctx.settings, name).NOTICE_ON_SUCCESS) console.info(`[repohost] cron task ${name} finished: ${message}`);
      await this.store.release(name, this.owner, { error: clip(error), message: clip(message), now: nowUnix() }).catch(() => undefined);
    } finally {
      this.running.delete(name);
      release();
    }
  }

  /** The stored state of a task (its last outcome included), for embedders and tests. */
  async state(name: string): Promise<CronTaskRow | undefined> {
    return this.store.find(name);
  }
}
