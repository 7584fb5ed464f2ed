import { defineDomain } from '../domain.js';
import { NotificationsService } from './service.js';

/** Notification threads follow issue and comment events; they go with their issue, repository and account. */
export const notificationsDomain = defineDomain({
  name: 'notifications',
  subscribe(ctx) {
    ctx.service(NotificationsService).subscribe();
  },
});
