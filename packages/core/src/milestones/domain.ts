import { defineDomain } from '../domain.js';
import { MilestonesService } from './service.js';

/** Milestones go with their repository. */
export const milestonesDomain = defineDomain({
  name: 'milestones',
  subscribe(ctx) {
    ctx.service(MilestonesService).subscribe();
  },
});
