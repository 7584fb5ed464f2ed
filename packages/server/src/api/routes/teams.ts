import { Type } from '@sinclair/typebox';
import {
  CreateTeamOptionSchema,
  EditTeamOptionSchema,
  MethodNotAllowedError,
  NotFoundError,
  RepositorySchema,
  TeamSchema,
  TeamSearchQuerySchema,
  TeamSearchResultsSchema,
  UserSchema,
  clampPage,
  isOrganization,
  toApiRepository,
  toApiTeam,
  toApiUser,
  type RepoAccess,
} from '@repohost/core';
import { mapPage, setPaginationHeaders, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { apiUsers, apiRepositories, addChanges } from './common.js';

/** `GET /repos/{owner}/{repo}/teams` answers every team at once (Forgejo's TeamListWithoutPagination). */
const TeamListSchema = Type.Array(TeamSchema);

/**
 * What the routes on an organization's teams answer besides success: no token (401), a caller the organization's
 * membership or ownership refuses (403), no organization or team the caller may see (404); the owners' writes add
 * refused input (422).
 */
const TEAM_ERRORS = ['unauthorized', 'forbidden', 'not_found'] as const;

/** Forgejo's 405 for the repository-teams routes of a repository owned by an individual. */
function assertOrgRepo({ owner }: RepoAccess): void {
  if (!isOrganization(owner)) throw new MethodNotAllowedError('repo is not owned by an organization');
}

/**
 * Teams: `/orgs/{org}/teams` (list, create, search), `/teams/{id}` (read, edit, delete, members, repositories),
 * `/user/teams`, and a repository's teams (`/repos/{owner}/{repo}/teams…`), with Forgejo's checks:
 * organization members list and search, owners create; a team's routes need its membership (or ownership of
 * the organization), and owners change it.
 */
export function registerTeamRoutes(_router: ApiRouter, { me, orgTeams, team, teamMembers, teamRepos, teamOwner, repoTeams, repoAdmin }: Groups): void {
  // ---- an organization's teams ----

  orgTeams.add({
    method: 'GET',
    path: '',
    operationId: 'orgListTeams',
    summary: "List an organization's teams",
    reply: { status: 200, description: 'TeamList', list: TeamSchema },
    errors: TEAM_ERRORS,
    handler: async ({ host, actor, org, page, view }) => mapPage(await host.teams.listOfOrg(actor, org, page), (t) => toApiTeam(t, view)),
  });

  orgTeams.add({
    method: 'POST',
    path: '',
    operationId: 'orgCreateTeam',
    summary: 'Create a team',
    body: CreateTeamOptionSchema,
    reply: { status: 201, description: 'Team', schema: TeamSchema },
    errors: [...TEAM_ERRORS, 'validation'],
    handler: async ({ host, actor, org, body, view }) => toApiTeam(await host.teams.create(actor, org, body), view, org),
  });

  orgTeams.add({
    method: 'GET',
    path: '/search',
    operationId: 'teamSearch',
    summary: 'Search for teams within an organization',
    query: TeamSearchQuerySchema,
    reply: { status: 200, description: 'SearchResults of a successful search', schema: TeamSearchResultsSchema },
    errors: TEAM_ERRORS,
    handler: async ({ host, actor, org, query, view, event, responseHeaders }) => {
      const found = await host.teams.search(actor, org, query);
      setPaginationHeaders(responseHeaders, host.settings.server.ROOT_URL, event.url, clampPage(host.settings, query), found.total);
      return { ok: true, data: found.items.map((t) => toApiTeam(t, view)) };
    },
  });

  // ---- one team ----

  team.add({
    method: 'GET',
    path: '',
    operationId: 'orgGetTeam',
    summary: 'Get a team',
    auth: 'token',
    reply: { status: 200, description: 'Team', schema: TeamSchema },
    errors: TEAM_ERRORS,
    handler: async ({ teamAccess, view }) => toApiTeam(teamAccess.team, view, teamAccess.org),
  });

  teamOwner.add({
    method: 'PATCH',
    path: '',
    operationId: 'orgEditTeam',
    summary: 'Edit a team',
    body: EditTeamOptionSchema,
    reply: { status: 200, description: 'Team', schema: TeamSchema },
    errors: [...TEAM_ERRORS, 'validation'],
    // As Forgejo, the edited team comes back without its organization.
    handler: async ({ host, actor, teamAccess, body, view }) => toApiTeam(await host.teams.edit(actor, teamAccess, body), view),
  });

  teamOwner.add({
    method: 'DELETE',
    path: '',
    operationId: 'orgDeleteTeam',
    summary: 'Delete a team',
    reply: { status: 204, description: 'team deleted' },
    errors: [...TEAM_ERRORS, 'validation'],
    handler: async ({ host, actor, teamAccess }) => host.teams.delete(actor, teamAccess),
  });

  // ---- members ----

  teamMembers.add({
    method: 'GET',
    path: '',
    operationId: 'orgListTeamMembers',
    summary: "List a team's members",
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: TEAM_ERRORS,
    handler: async ({ host, teamAccess, page, view }) => apiUsers(await host.teams.listMembers(teamAccess, page), view),
  });

  teamMembers.add({
    method: 'GET',
    path: '/{username}',
    operationId: 'orgListTeamMember',
    summary: 'List a particular member of team',
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: TEAM_ERRORS,
    handler: async ({ host, actor, teamAccess, params, view }) => {
      const user = await host.users.resolve(actor, params.username);
      if (!(await host.teams.isMember(teamAccess, user))) throw new NotFoundError();
      return toApiUser(user, view);
    },
  });

  addChanges(teamOwner, '/members/{username}', [
    { method: 'PUT', operationId: 'orgAddTeamMember', summary: 'Add a team member', errors: [...TEAM_ERRORS, 'conflict', 'validation'] },
    { method: 'DELETE', operationId: 'orgRemoveTeamMember', summary: 'Remove a team member', errors: [...TEAM_ERRORS, 'validation'] },
  ], async ({ host, actor, teamAccess, params }, add) => {
    const member = await host.users.resolve(actor, params.username);
    await (add ? host.teams.addMember(actor, teamAccess, member) : host.teams.removeMember(actor, teamAccess, member));
  });

  // ---- repositories ----

  teamRepos.add({
    method: 'GET',
    path: '',
    operationId: 'orgListTeamRepos',
    summary: "List a team's repos",
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: TEAM_ERRORS,
    handler: async ({ host, actor, teamAccess, page, view }) => apiRepositories(await host.teams.listRepos(actor, teamAccess, page), view),
  });

  teamRepos.add({
    method: 'GET',
    path: '/{org}/{repo}',
    operationId: 'orgListTeamRepo',
    summary: 'List a particular repo of team',
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: TEAM_ERRORS,
    handler: async ({ host, actor, teamAccess, params, view }) => toApiRepository(await host.teams.repo(actor, teamAccess, params.repo), view),
  });

  addChanges(teamRepos, '/{org}/{repo}', [
    { method: 'PUT', operationId: 'orgAddTeamRepository', summary: 'Add a repository to a team', errors: TEAM_ERRORS },
    { method: 'DELETE', operationId: 'orgRemoveTeamRepository', summary: 'Remove a repository from a team', errors: TEAM_ERRORS },
  ], async ({ host, actor, teamAccess, params }, add) => (add ? host.teams.addRepo(actor, teamAccess, params.repo) : host.teams.removeRepo(actor, teamAccess, params.repo)));

  // ---- the signed-in user's teams ----

  me.add({
    method: 'GET',
    path: '/teams',
    operationId: 'userListTeams',
    summary: 'List all the teams a user belongs to',
    scopes: ['user', 'organization'],
    reply: { status: 200, description: 'TeamList', list: TeamSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, me, page, view }) => mapPage(await host.teams.listOfUser(me, page), ({ team, org }) => toApiTeam(team, view, org)),
  });

  // ---- a repository's teams ----

  repoTeams.add({
    method: 'GET',
    path: '',
    operationId: 'repoListTeams',
    summary: "List a repository's teams",
    reply: { status: 200, description: 'TeamListWithoutPagination', schema: TeamListSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, repo, view }) => {
      assertOrgRepo(repo);
      return (await host.teams.teamsOfRepo(repo)).map((t) => toApiTeam(t, view));
    },
  });

  repoTeams.add({
    method: 'GET',
    path: '/{team}',
    operationId: 'repoCheckTeam',
    summary: 'Check if a team is assigned to a repository',
    reply: { status: 200, description: 'Team', schema: TeamSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, repo, params, view }) => {
      assertOrgRepo(repo);
      return toApiTeam(await host.teams.repoTeam(repo, params.team), view);
    },
  });

  const REPO_TEAM_ERRORS = ['unauthorized', 'forbidden', 'not_found', 'validation'] as const;
  addChanges(repoAdmin, '/teams/{team}', [
    { method: 'PUT', operationId: 'repoAddTeam', summary: 'Add a team to a repository', errors: REPO_TEAM_ERRORS },
    { method: 'DELETE', operationId: 'repoDeleteTeam', summary: 'Delete a team from a repository', errors: REPO_TEAM_ERRORS },
  ], async ({ host, actor, repo, params }, add) => {
    assertOrgRepo(repo);
    await host.teams.changeRepoTeam(actor, repo, params.team, add);
  });
}
