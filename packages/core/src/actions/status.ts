/**
 * The states of runs, jobs, tasks and steps, as Forgejo numbers and names them (`models/actions/status.go`), and how
 * a set of job states makes a run's state.
 */
export const ActionStatus = {
  Unknown: 0,
  Success: 1,
  Failure: 2,
  Cancelled: 3,
  Skipped: 4,
  Waiting: 5,
  Running: 6,
  Blocked: 7,
} as const;
export type ActionStatus = (typeof ActionStatus)[keyof typeof ActionStatus];

const NAMES = ['unknown', 'success', 'failure', 'cancelled', 'skipped', 'waiting', 'running', 'blocked'] as const;
export type ActionStatusName = (typeof NAMES)[number];

export function statusName(status: number): ActionStatusName {
  return NAMES[status] ?? 'unknown';
}

/** The status a name means (the API's `status=` filters), undefined for a name Forgejo does not have. */
export function statusOfName(name: string): ActionStatus | undefined {
  const index = (NAMES as readonly string[]).indexOf(name.toLowerCase());
  return index < 0 ? undefined : (index as ActionStatus);
}

/** Finished: nothing more will happen to it unless it is run again. */
export function isDone(status: number): boolean {
  return status === ActionStatus.Success || status === ActionStatus.Failure || status === ActionStatus.Cancelled || status === ActionStatus.Skipped;
}

/** A run's state from its jobs' (Forgejo's `AggregateJobStatus`). */
export function aggregateStatus(statuses: readonly number[]): ActionStatus {
  if (statuses.length === 0) return ActionStatus.Unknown;
  let allSkipped = true;
  let allSuccessOrSkipped = true;
  let cancelled = false;
  let failure = false;
  let running = false;
  let waiting = false;
  let blocked = false;
  for (const status of statuses) {
    allSkipped &&= status === ActionStatus.Skipped;
    allSuccessOrSkipped &&= status === ActionStatus.Success || status === ActionStatus.Skipped;
    cancelled ||= status === ActionStatus.Cancelled;
    failure ||= status === ActionStatus.Failure;
    running ||= status === ActionStatus.Running;
    waiting ||= status === ActionStatus.Waiting;
    blocked ||= status === ActionStatus.Blocked;
  }
  if (allSkipped) return ActionStatus.Skipped;
  if (allSuccessOrSkipped) return ActionStatus.Success;
  // Forgejo's order: a cancelled or failed job decides the run even while others still run.
  if (cancelled) return ActionStatus.Cancelled;
  if (failure) return ActionStatus.Failure;
  if (running) return ActionStatus.Running;
  if (waiting) return ActionStatus.Waiting;
  if (blocked) return ActionStatus.Blocked;
  return ActionStatus.Unknown;
}

/** The runner protocol's `Result` (0 unspecified, 1 success, 2 failure, 3 cancelled, 4 skipped) as a status. */
export function statusOfResult(result: number): ActionStatus | undefined {
  switch (result) {
    case 1:
      return ActionStatus.Success;
    case 2:
      return ActionStatus.Failure;
    case 3:
      return ActionStatus.Cancelled;
    case 4:
      return ActionStatus.Skipped;
    default:
      return undefined;
  }
}

/** A status as the runner protocol's `Result` (0 while not finished). */
export function resultOfStatus(status: number): number {
  switch (status) {
    case ActionStatus.Success:
      return 1;
    case ActionStatus.Failure:
      return 2;
    case ActionStatus.Cancelled:
      return 3;
    case ActionStatus.Skipped:
      return 4;
    default:
      return 0;
  }
}

/** The commit status a job's state shows as (Forgejo's `toCommitStatus`). */
export function commitStateOf(status: number): 'success' | 'failure' | 'pending' | 'error' {
  switch (status) {
    case ActionStatus.Success:
    case ActionStatus.Skipped:
      return 'success';
    case ActionStatus.Failure:
    case ActionStatus.Cancelled:
      return 'failure';
    case ActionStatus.Waiting:
    case ActionStatus.Blocked:
    case ActionStatus.Running:
      return 'pending';
    default:
      return 'error';
  }
}
