import { isoTime } from '../wire.js';
import { nowUnix } from '../storage/index.js';
import type { ApiActionRunner, ApiActionVariable, ApiSecret, RunnerStatus } from './schemas.js';
import type { SecretListing } from './store.js';
import type { ActionRunner, ActionVariable } from './tables.js';

/** Forgejo's `Secret`: the name and the creation time; a value never leaves the server. */
export function toApiSecret(secret: SecretListing): ApiSecret {
  return { name: secret.name, created_at: isoTime(secret.created_unix) };
}

/** Forgejo's `ActionVariable`. */
export function toApiActionVariable(variable: ActionVariable): ApiActionVariable {
  return { owner_id: variable.owner_id, repo_id: variable.repo_id, name: variable.name, data: variable.data };
}

/** A runner is offline a minute after it last asked for work (Forgejo's `RunnerOfflineTime`). */
export const RUNNER_OFFLINE_SECONDS = 60;
/** A runner is idle ten seconds after it last did work (Forgejo's `RunnerIdleTime`). */
export const RUNNER_IDLE_SECONDS = 10;

/** Forgejo's `ActionRunner.StatusName` at `now` (Unix seconds). */
export function runnerStatus(runner: Pick<ActionRunner, 'last_online' | 'last_active'>, now: number): RunnerStatus {
  if (now - runner.last_online > RUNNER_OFFLINE_SECONDS) return 'offline';
  if (now - runner.last_active > RUNNER_IDLE_SECONDS) return 'idle';
  return 'active';
}

/** The labels a runner declared (stored as a JSON array). */
export function runnerLabels(runner: Pick<ActionRunner, 'agent_labels'>): string[] {
  try {
    const labels: unknown = JSON.parse(runner.agent_labels);
    return Array.isArray(labels) ? labels.filter((label): label is string => typeof label === 'string') : [];
  } catch {
    return [];
  }
}

/** Forgejo's `ActionRunner`, its status as of `now` (Unix seconds; by default the present). */
export function toApiActionRunner(runner: ActionRunner, now: number = nowUnix()): ApiActionRunner {
  return {
    id: runner.id,
    uuid: runner.uuid,
    name: runner.name,
    owner_id: runner.owner_id,
    repo_id: runner.repo_id,
    description: runner.description,
    labels: runnerLabels(runner),
    status: runnerStatus(runner, now),
    version: runner.version,
    ephemeral: runner.ephemeral !== 0,
  };
}
