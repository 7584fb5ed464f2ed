/**
 * Counts of this process's git work, for `/metrics`: how many git processes run and have been started, and how many
 * operations hold or wait for a slot of a `ConcurrencyLimit` (git services, archives, scratch writes). They are
 * per process, like any Prometheus series, whatever number of hosts the process holds.
 */
export interface GitProcessStats {
  /** git processes started and not yet exited. */
  running: number;
  /** git processes started since the process began. */
  started: number;
  /** Operations holding a slot of a ConcurrencyLimit. */
  active: number;
  /** Operations waiting for a slot. */
  waiting: number;
}

/** The live counters, written by `NativeGitBackend.spawnGit` and `ConcurrencyLimit`. */
export const gitCounters: GitProcessStats = { running: 0, started: 0, active: 0, waiting: 0 };

/** A copy of the counters as they are now. */
export function gitProcessStats(): GitProcessStats {
  return { ...gitCounters };
}
