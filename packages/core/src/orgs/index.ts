/**
 * The orgs folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './events.js';
export { orgsDomain } from './domain.js';
export { OrgsPort } from './port.js';
export { RenameOrgOptionSchema, type RenameOrgOption } from './schemas.js';
export { OrgsService } from './service.js';
export { type OrgsTables, type Team } from './tables.js';
export { teamUnits, toApiTeam } from './team-convert.js';
export { TeamSchema } from './team-schemas.js';
export { TeamsService } from './teams.js';
