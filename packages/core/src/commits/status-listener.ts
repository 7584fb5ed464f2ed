/**
 * What reacts when a commit status is reported: pull requests whose merge is scheduled on that commit. Pulls sit
 * above commits, so commits declares the call and the pulls domain provides it (`commits.statusListener`). It is
 * awaited where the status is recorded, before the report returns, so a merge it allows has happened by then.
 */
export interface StatusListener {
  /** A status was reported for commit `sha` of repository `repoId`; failures are reported, never thrown. */
  statusReported(repoId: number, sha: string): Promise<void>;
}

declare module '../context.js' {
  interface CoreProviders {
    'commits.statusListener': StatusListener;
  }
}
