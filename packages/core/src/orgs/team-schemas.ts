import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';
import { ACCESS_MODE_NAMES } from '../access/index.js';
import { OrganizationSchema } from './schemas.js';

/** A team name's longest form (Forgejo's `MaxSize(255)` binding). */
export const TEAM_NAME_MAX_LENGTH = 255;
export const TEAM_DESCRIPTION_MAX_LENGTH = 255;

/** What a team may be given on create and edit: the Owners team alone holds `owner`. */
const TeamPermissionSchema = StringEnum(['read', 'write', 'admin'] as const);

const unitsDescription = '\nDeprecated: This variable should be replaced by UnitsMap and will be dropped in later versions.';

/** The API `Team` record. */
export const TeamSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    description: Type.String(),
    /** Present where Forgejo loads it (a single team, a user's teams); absent (null) in an organization's lists. */
    organization: Type.Union([OrganizationSchema, Type.Null()]),
    includes_all_repositories: Type.Boolean(),
    permission: StringEnum(ACCESS_MODE_NAMES),
    units: Type.Array(Type.String(), { description: unitsDescription }),
    units_map: Type.Record(Type.String(), Type.String()),
    can_create_org_repo: Type.Boolean(),
  },
  { $id: 'Team', description: 'Team represents a team in an organization' },
);
export type ApiTeam = Static<typeof TeamSchema>;

export const CreateTeamOptionSchema = Type.Object(
  {
    name: Type.String({ maxLength: TEAM_NAME_MAX_LENGTH }),
    description: Type.Optional(Type.String({ maxLength: TEAM_DESCRIPTION_MAX_LENGTH })),
    includes_all_repositories: Type.Optional(Type.Boolean()),
    permission: Type.Optional(TeamPermissionSchema),
    units: Type.Optional(Type.Array(Type.String(), { description: unitsDescription })),
    units_map: Type.Optional(Type.Record(Type.String(), Type.String())),
    can_create_org_repo: Type.Optional(Type.Boolean()),
  },
  { $id: 'CreateTeamOption', description: 'CreateTeamOption options for creating a team' },
);
export type CreateTeamOption = Static<typeof CreateTeamOptionSchema>;

export const EditTeamOptionSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: TEAM_NAME_MAX_LENGTH })),
    description: Type.Optional(Type.String({ maxLength: TEAM_DESCRIPTION_MAX_LENGTH })),
    includes_all_repositories: Type.Optional(Type.Boolean()),
    permission: Type.Optional(TeamPermissionSchema),
    units: Type.Optional(Type.Array(Type.String(), { description: unitsDescription })),
    units_map: Type.Optional(Type.Record(Type.String(), Type.String())),
    can_create_org_repo: Type.Optional(Type.Boolean()),
  },
  { $id: 'EditTeamOption', description: 'EditTeamOption options for editing a team' },
);
export type EditTeamOption = Static<typeof EditTeamOptionSchema>;

/** `GET /orgs/{org}/teams/search`'s query (`page`, `limit` besides). */
export const TeamSearchQuerySchema = Type.Object({
  q: Type.Optional(Type.String({ description: 'keywords to search' })),
  include_desc: Type.Optional(Type.Boolean({ description: 'include search within team description (defaults to true)' })),
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results' })),
});
export type TeamSearchQuery = Static<typeof TeamSearchQuerySchema>;

/** `GET /orgs/{org}/teams/search`'s answer. */
export const TeamSearchResultsSchema = Type.Object(
  {
    ok: Type.Boolean(),
    data: Type.Array(TeamSchema),
  },
  { $id: 'TeamSearchResults', description: 'SearchResults of a successful search' },
);
export type ApiTeamSearchResults = Static<typeof TeamSearchResultsSchema>;
