import type { ApiView } from '../wire.js';
import { AccessMode, accessModeName, UNIT_NAMES } from '../access/index.js';
import type { User } from '../users/index.js';
import { toApiOrganization } from './convert.js';
import type { Team } from './tables.js';
import type { ApiTeam } from './team-schemas.js';

/**
 * A team's per-unit modes as stored (unit name → mode), in the order Forgejo lists units. An empty map means every
 * unit at the team's mode (see the `team` table).
 */
export function teamUnits(team: Pick<Team, 'units'>): Map<string, number> {
  const units = new Map<string, number>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(team.units || '{}');
  } catch {
    parsed = {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return units;
  const stored = parsed as Record<string, unknown>;
  for (const unit of UNIT_NAMES) {
    const mode = stored[unit];
    if (typeof mode === 'number') units.set(unit, mode);
  }
  return units;
}

/**
 * A team as the API shows it, as Forgejo converts one: teams with admin rights (and the Owners team) list every
 * unit at their own mode; others their units as given (a unit given `none` is still listed). `org` is set where
 * Forgejo loads the organization (a single team, a user's teams), else `organization` is null.
 */
export function toApiTeam(team: Team, view: ApiView, org?: User): ApiTeam {
  const units = teamUnits(team);
  const unitsMap: Record<string, string> = {};
  if (team.authorize >= AccessMode.Admin || units.size === 0) {
    for (const unit of UNIT_NAMES) unitsMap[unit] = accessModeName(team.authorize);
  } else {
    for (const [unit, mode] of units) unitsMap[unit] = accessModeName(mode);
  }
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: org ? toApiOrganization(org, view) : null,
    includes_all_repositories: team.includes_all_repositories === 1,
    permission: accessModeName(team.authorize),
    units: Object.keys(unitsMap),
    units_map: unitsMap,
    can_create_org_repo: team.can_create_org_repo === 1,
  };
}
