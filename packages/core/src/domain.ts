/**
 * What a domain contributes to a host besides its service: its event handlers, job handlers, recurring tasks and
 * start-up repairs, declared once in its own folder (`<domain>/domain.ts`) and listed once in `domains.ts`. The host,
 * the jobs worker, the cron scheduler and the start-up reconcile read them from that list, so none of them imports a
 * domain. This file is kernel: it imports no domain either.
 */
import type { CoreContext, CoreTransaction } from './context.js';
import type { JobHandlers } from './jobs/service.js';
import type { CronTaskDefinition } from './cron/tasks.js';
import type { RekeyCounts, SecretRekey } from './security/secrets.js';

/**
 * What the start-up repairs report. `repos/storage.ts` declares its fields (its `ReconcileReport`, by augmenting
 * this interface), so a repair adds to the report the host keeps without this file importing it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface RepairReport {}

/** A git intent a crash left (a `repo_git_intent` row), as a repair of its op receives it. */
export interface InterruptedIntent {
  id: number;
  op: string;
  /** What the op says: a repository, an account, a pull request. */
  repoId: number;
  /** The storage the intent names, lower-case. */
  key: { owner: string; name: string };
}

/**
 * A start-up repair, run by `RepoStorageService.reconcile` before anything is served. One with `intent` finishes or
 * undoes each left-over intent of that op (which the domain records with `ReposPort.beginIntent(op, …)`), in the pass
 * over every intent, oldest first; the intent is deleted after it, unless the repair answers 'busy' (a live change of
 * another process holds what it guards: the intent is left for the next sweep). One without runs once after that
 * pass, in the order of `domains.ts`, for what the domain's own rows say was interrupted.
 */
export type DomainRepair =
  | { readonly intent: string; run(ctx: CoreContext, intent: InterruptedIntent, report: RepairReport): Promise<void | 'busy'> }
  | { readonly intent?: undefined; run(ctx: CoreContext, report: RepairReport): Promise<void> };

/**
 * A kind of value a domain keeps encrypted under `[security] SECRET_KEY`. `repohost admin regenerate secrets` moves
 * every kind to the current key in one transaction; each kind re-encrypts its own rows.
 */
export interface StoredSecretKind {
  /** Names the kind in the report (`webhook authorization headers`). */
  readonly kind: string;
  reencrypt(ctx: CoreContext, tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts>;
}

export interface DomainRecord {
  /** Unique among the records; names the record in errors. */
  readonly name: string;
  /**
   * Registers the domain's implementations of interfaces lower domains declared (`ctx.provide(key, impl)`, see
   * `CoreProviders` in `context.ts`). Every record's `provide` runs before any `subscribe`.
   */
  provide?(ctx: CoreContext): void;
  /**
   * Registers the domain's event handlers, once per host. Handlers of one event run in registration order, which
   * is the order of `domains.ts`.
   */
  subscribe?(ctx: CoreContext): void;
  /** Handlers of the job kinds the domain queues (kinds declared by augmenting `JobPayloads`); each idempotent. */
  readonly jobs?: JobHandlers;
  /** Recurring tasks, each with its `[cron.<name>]` settings; listed (`/admin/cron`) in the order of `domains.ts`. */
  readonly cron?: readonly CronTaskDefinition[];
  readonly repairs?: readonly DomainRepair[];
  /** The values the domain stores encrypted, in the order the re-encryption report lists them. */
  readonly secrets?: readonly StoredSecretKind[];
}

/** Declares a domain's record (an identity function: it gives the literal its type where it is written). */
export function defineDomain<const R extends DomainRecord>(record: R): R {
  return record;
}

/** Every record's job handlers, in one table; a kind declared twice is a programming error. */
export function jobHandlersOf(records: readonly DomainRecord[]): JobHandlers {
  const all: Record<string, unknown> = {};
  for (const record of records) {
    for (const [kind, handler] of Object.entries(record.jobs ?? {})) {
      if (kind in all) throw new Error(`job kind ${kind} is declared twice (again by domain ${record.name})`);
      all[kind] = handler;
    }
  }
  return all as JobHandlers;
}

/** Every record's recurring tasks, in the records' order; a name declared twice is a programming error. */
export function cronTasksOf(records: readonly DomainRecord[]): readonly CronTaskDefinition[] {
  const all: CronTaskDefinition[] = [];
  for (const record of records) {
    for (const task of record.cron ?? []) {
      if (all.some((t) => t.name === task.name)) throw new Error(`cron task ${task.name} is declared twice (again by domain ${record.name})`);
      all.push(task);
    }
  }
  return all;
}

/** Every record's start-up repairs, in the records' order. */
export function repairsOf(records: readonly DomainRecord[]): readonly DomainRepair[] {
  return records.flatMap((record) => record.repairs ?? []);
}

/** Every record's encrypted kinds, in the records' order; a kind named twice is a programming error. */
export function secretKindsOf(records: readonly DomainRecord[]): readonly StoredSecretKind[] {
  const all = records.flatMap((record) => record.secrets ?? []);
  const names = new Set(all.map((k) => k.kind));
  if (names.size !== all.length) throw new Error('a kind of stored secret is declared twice');
  return all;
}

/** Checks that the record names are unique (a record listed twice would subscribe twice). */
export function checkDomains(records: readonly DomainRecord[]): void {
  const seen = new Set<string>();
  for (const record of records) {
    if (seen.has(record.name)) throw new Error(`domain ${record.name} is listed twice`);
    seen.add(record.name);
  }
}
