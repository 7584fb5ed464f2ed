/**
 * The shape of a recurring task. Domains declare their tasks in their records (`<domain>/domain.ts`), each configured
 * by its `[cron.<name>]` section (ENABLED, RUN_AT_START, SCHEDULE and its own keys); `domains.ts` lists them, under
 * Forgejo's names and in Forgejo's order, then RepoHost's own. Only tasks that do real work in RepoHost exist:
 * Forgejo's tasks over things RepoHost does not keep (packages, actions, LFS, archives on disk, an authorized_keys
 * file, system notices, deleted branches) do not.
 */
import type { Settings } from '../config/index.js';
import type { CoreContext } from '../context.js';

/** Sections of settings that configure a task. */
export type CronSection = Extract<keyof Settings, `cron.${string}`>;
export type CronTaskName = CronSection extends `cron.${infer Name}` ? Name : never;

/** The keys every task's section has. */
export interface CronTaskConfig {
  ENABLED: boolean;
  RUN_AT_START: boolean;
  SCHEDULE: string;
  NOTICE_ON_SUCCESS: boolean;
}

export interface CronTaskDefinition {
  name: CronTaskName;
  /** Seconds one run may take; then its signal is aborted. */
  timeoutSeconds: number;
  /** Whether the task exists at all with these settings (Forgejo registers some only when their feature is on). */
  registered?(settings: Settings): boolean;
  /** One run; returns a one-line summary. Throwing records the error as the run's outcome. */
  run(ctx: CoreContext, signal: AbortSignal): Promise<string>;
}

/** A task's section of the settings. */
export function cronConfig(settings: Settings, name: CronTaskName): CronTaskConfig {
  return settings[`cron.${name}`];
}
