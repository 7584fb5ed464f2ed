/** The formatter of a hook type, from `formats/` (one per type Forgejo knows). */
import { HOOK_FORMATTERS } from './formats/index.js';
import type { HookFormatter } from './formats/types.js';

export function formatterOf(type: string): HookFormatter | undefined {
  return HOOK_FORMATTERS.get(type);
}
