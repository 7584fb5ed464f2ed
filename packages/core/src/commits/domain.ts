import { defineDomain } from '../domain.js';
import { CommitStatusesService } from './statuses.js';

/** Commit statuses go with their repository. */
export const commitsDomain = defineDomain({
  name: 'commits',
  subscribe(ctx) {
    ctx.service(CommitStatusesService).subscribe();
  },
});
