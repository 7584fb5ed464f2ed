/**
 * The monitoring folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { MonitoringService, type HealthCheck } from './service.js';
export type { PoolStatistics, QueueStatistics, SiteStatistics } from './store.js';
