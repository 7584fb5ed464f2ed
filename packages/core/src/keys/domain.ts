import { defineDomain } from '../domain.js';
import { KeysService } from './service.js';

/** Deploy keys go with their repository. */
export const keysDomain = defineDomain({
  name: 'keys',
  subscribe(ctx) {
    ctx.service(KeysService).subscribe();
  },
});
