import { defineDomain } from '../domain.js';
import { RateLimitService } from './service.js';

/** The rate limit counters' housekeeping: `cleanup_rate_limits`, listed only while `[api.ratelimit] ENABLED`. */
export const rateLimitDomain = defineDomain({
  name: 'ratelimit',
  cron: [
    {
      name: 'cleanup_rate_limits',
      timeoutSeconds: 600,
      registered: (settings) => settings['api.ratelimit'].ENABLED,
      run: (ctx) => ctx.service(RateLimitService).cleanup(),
    },
  ],
});
