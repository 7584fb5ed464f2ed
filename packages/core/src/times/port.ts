import type { StoreScope } from '../storage/index.js';
import { TrackedTimesStore } from './store.js';
import type { TrackedTime } from './tables.js';

/** What other domains read of tracked times; the times domain's stores stay private. */
export class TimesPort {
  constructor(private readonly scope: StoreScope) {}

  /** Tracked times by id in one query, deleted ones too (a timeline shows what was tracked then). */
  byIds(ids: readonly number[]): Promise<TrackedTime[]> {
    return this.scope.store(TrackedTimesStore).byIds(ids);
  }
}
