import { defineDomain } from '../domain.js';
import { ActivityService } from './service.js';

/** Actions (activity feeds) are recorded from events: in their transaction, or after a push committed. */
export const activityDomain = defineDomain({
  name: 'activity',
  subscribe(ctx) {
    ctx.service(ActivityService).subscribe();
  },
});
