import { defineDomain } from '../domain.js';
import { LabelsService } from './service.js';
import { repoLabels } from './repo-labels.js';

/** Label counts follow issues; organization labels go with the organization. */
export const labelsDomain = defineDomain({
  name: 'labels',
  provide(ctx) {
    // A repository's own labels are written with it, inside its transaction (`ReposService`).
    ctx.provide('repos.labels', repoLabels);
  },
  subscribe(ctx) {
    ctx.service(LabelsService).subscribe();
  },
});
