import { defineDomain } from '../domain.js';
import { MigrateService } from './service.js';

/** Migrations run as durable jobs; one a crash ended leaves no half-made repository. */
export const migrateDomain = defineDomain({
  name: 'migrate',
  jobs: {
    // One attempt: a failed migration removes its repository (the caller sees why). The clone stops at
    // `[git.timeout] MIGRATE`; content imports may take longer.
    'migrate.run': { maxAttempts: 1, timeoutSeconds: 6 * 3600, handle: (ctx, run) => ctx.service(MigrateService).handleRun(run) },
  },
  repairs: [
    {
      // Migrations that ended without completing are removed; running ones resume with the jobs.
      async run(ctx, report) {
        for (const repoId of await ctx.service(MigrateService).repairInterrupted()) report.abandonedMigrations.push(repoId);
      },
    },
  ],
  secrets: [{ kind: 'migration credentials', reencrypt: (ctx, tx, rekey) => ctx.service(MigrateService).reencryptSecrets(tx, rekey) }],
});
