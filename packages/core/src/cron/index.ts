/**
 * The cron folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { maintenanceDomain, maintenanceExtendedDomain } from './domain.js';
export { CronService } from './service.js';
