/**
 * Payloads by job kind. Each domain declares its kinds next to its code by augmenting this interface
 * (`declare module '../jobs/kinds.js' { interface JobPayloads { 'mirror.sync': { repoId: number } } }`), so the jobs
 * domain never imports a domain; the handlers are in the domain's record (`<domain>/domain.ts`, `jobs`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface JobPayloads {}

export type JobKind = keyof JobPayloads & string;
