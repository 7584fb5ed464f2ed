import { defineDomain } from '../domain.js';
import { TimesService } from './service.js';

/** Stopwatches go with their account. */
export const timesDomain = defineDomain({
  name: 'times',
  subscribe(ctx) {
    ctx.service(TimesService).subscribe();
  },
});
