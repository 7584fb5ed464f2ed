import type { CoreContext } from '../context.js';
import type { Actor } from '../access/actor.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/access.js';
import { LabelsStore } from './store.js';
import type { LabelSort } from './schemas.js';
import type { Label } from './tables.js';

/** Repository labels. Creating and editing them comes with the issue tracker; today they come from label sets and templates. */
export class LabelsService {
  constructor(private readonly ctx: CoreContext) {}

  /** A page of the repository's labels (the route group already checked the actor may read it). */
  listOfRepo(_actor: Actor, access: RepoAccess, paging: Paging & { sort?: LabelSort } = {}): Promise<Page<Label>> {
    return this.ctx.store(LabelsStore).pageOfRepo(access.repo.id, clampPage(this.ctx.settings, paging), paging.sort ?? 'alphabetically');
  }
}
