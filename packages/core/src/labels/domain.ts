import { defineDomain } from '../domain.js';
import { LabelsService } from './service.js';

/** Label counts follow issues; organization labels go with the organization. */
export const labelsDomain = defineDomain({
  name: 'labels',
  subscribe(ctx) {
    ctx.service(LabelsService).subscribe();
  },
});
