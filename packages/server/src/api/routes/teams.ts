import { Type } from '@sinclair/typebox';
import {
  AccessMode,
  CreateTeamOptionSchema,
  EditTeamOptionSchema,
  ForbiddenError,
  NotFoundError,
  RepositorySchema,
  TeamSchema,
  TeamSearchQuerySchema,
  TeamSearchResultsSchema,
  UserSchema,
  clampPage,
  isOrganization,
  isSiteAdmin,
  toApiRepository,
  toApiTeam,
  toApiUser,
  type RepoAccess,
} from '@repohost/core';
import { setPaginationHeaders, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { HttpError } from '../errors.js';

/** `GET /repos/{owner}/{repo}/teams` answers every team at once (Forgejo's TeamListWithoutPagination). */
const TeamListSchema = Type.Array(TeamSchema);

const EMPTY = { status: 204, description: 'APIEmpty is an empty response' } as const;

/** Forgejo's 405 for the repository-teams routes of a repository owned by an individual. */
function assertOrgRepo({ owner }: RepoAccess): void {
  if (!isOrganization(owner)) throw new HttpError(405, 'repo is not owned by an organization');
}

/**
 * Teams: `/orgs/{org}/teams` (list, create, search), `/teams/{id}` (read, edit, delete, members, repositories),
 * `/user/teams`, and a repository's teams (`/repos/{owner}/{repo}/teams…`), with Forgejo's checks:
 * organization members list and search, owners create; a team's routes need its membership (or ownership of
 * the organization), and owners change it.
 */
export function registerTeamRoutes(_router: ApiRouter, { me, org, team, repo }: Groups): void {
  // ---- an organization's teams ----

  org.add({
    method: 'GET',
    path: '/teams',
    operationId: 'orgListTeams',
    summary: "List an organization's teams",
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'TeamList', list: TeamSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, org, page, view }) => {
      const { items, total } = await host.teams.listOfOrg(actor, org, page);
      return { items: items.map((t) => toApiTeam(t, view)), total };
    },
  });

  org.add({
    method: 'POST',
    path: '/teams',
    operationId: 'orgCreateTeam',
    summary: 'Create a team',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    body: CreateTeamOptionSchema,
    reply: { status: 201, description: 'Team', schema: TeamSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, org, body, view }) => toApiTeam(await host.teams.create(actor, org, body), view, org),
  });

  org.add({
    method: 'GET',
    path: '/teams/search',
    operationId: 'teamSearch',
    summary: 'Search for teams within an organization',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    query: TeamSearchQuerySchema,
    reply: { status: 200, description: 'SearchResults of a successful search', schema: TeamSearchResultsSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
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
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'Team', schema: TeamSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ teamAccess, view }) => toApiTeam(teamAccess.team, view, teamAccess.org),
  });

  /** Owners and site administrators only (Forgejo's reqOrgOwnership, a 404 on a team's routes). */
  const owned = team.nest('', async ({ host, actor, teamAccess }) => {
    await host.teams.assertOwner(actor, teamAccess);
    return {};
  });

  owned.add({
    method: 'PATCH',
    path: '',
    operationId: 'orgEditTeam',
    summary: 'Edit a team',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    body: EditTeamOptionSchema,
    reply: { status: 200, description: 'Team', schema: TeamSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    // As Forgejo, the edited team comes back without its organization.
    handler: async ({ host, actor, teamAccess, body, view }) => toApiTeam(await host.teams.edit(actor, teamAccess, body), view),
  });

  owned.add({
    method: 'DELETE',
    path: '',
    operationId: 'orgDeleteTeam',
    summary: 'Delete a team',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 204, description: 'team deleted' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, teamAccess }) => host.teams.delete(actor, teamAccess),
  });

  // ---- members ----

  team.add({
    method: 'GET',
    path: '/members',
    operationId: 'orgListTeamMembers',
    summary: "List a team's members",
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, teamAccess, page, view }) => {
      const { items, total } = await host.teams.listMembers(teamAccess, page);
      return { items: items.map((u) => toApiUser(u, view)), total };
    },
  });

  team.add({
    method: 'GET',
    path: '/members/{username}',
    operationId: 'orgListTeamMember',
    summary: 'List a particular member of team',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'User', schema: UserSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, teamAccess, params, view }) => {
      const user = await host.users.resolve(actor, params.username);
      if (!(await host.teams.isMember(teamAccess, user))) throw new NotFoundError();
      return toApiUser(user, view);
    },
  });

  owned.add({
    method: 'PUT',
    path: '/members/{username}',
    operationId: 'orgAddTeamMember',
    summary: 'Add a team member',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, teamAccess, params }) => host.teams.addMember(actor, teamAccess, await host.users.resolve(actor, params.username)),
  });

  owned.add({
    method: 'DELETE',
    path: '/members/{username}',
    operationId: 'orgRemoveTeamMember',
    summary: 'Remove a team member',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, teamAccess, params }) => host.teams.removeMember(actor, teamAccess, await host.users.resolve(actor, params.username)),
  });

  // ---- repositories ----

  team.add({
    method: 'GET',
    path: '/repos',
    operationId: 'orgListTeamRepos',
    summary: "List a team's repos",
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, teamAccess, page, view }) => {
      const { items, total } = await host.teams.listRepos(actor, teamAccess, page);
      return { items: items.map((r) => toApiRepository(r, view)), total };
    },
  });

  team.add({
    method: 'GET',
    path: '/repos/{org}/{repo}',
    operationId: 'orgListTeamRepo',
    summary: 'List a particular repo of team',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'Repository', schema: RepositorySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, teamAccess, params, view }) => toApiRepository(await host.teams.repo(actor, teamAccess, params.repo), view),
  });

  team.add({
    method: 'PUT',
    path: '/repos/{org}/{repo}',
    operationId: 'orgAddTeamRepository',
    summary: 'Add a repository to a team',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, teamAccess, params }) => host.teams.addRepo(actor, teamAccess, params.repo),
  });

  team.add({
    method: 'DELETE',
    path: '/repos/{org}/{repo}',
    operationId: 'orgRemoveTeamRepository',
    summary: 'Remove a repository from a team',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, teamAccess, params }) => host.teams.removeRepo(actor, teamAccess, params.repo),
  });

  // ---- the signed-in user's teams ----

  me.add({
    method: 'GET',
    path: '/teams',
    operationId: 'userListTeams',
    summary: 'List all the teams a user belongs to',
    tag: 'user',
    scopes: ['user', 'organization'],
    reply: { status: 200, description: 'TeamList', list: TeamSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, me, page, view }) => {
      const { items, total } = await host.teams.listOfUser(me, page);
      return { items: items.map(({ team, org }) => toApiTeam(team, view, org)), total };
    },
  });

  // ---- a repository's teams ----

  /** Forgejo's reqAdmin, before anything else. */
  const repoAdmin = repo.nest('', async ({ actor, repo }) => {
    if (repo.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
    return {};
  });

  repo.add({
    method: 'GET',
    path: '/teams',
    operationId: 'repoListTeams',
    summary: "List a repository's teams",
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'TeamListWithoutPagination', schema: TeamListSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, repo, view }) => {
      assertOrgRepo(repo);
      return (await host.teams.teamsOfRepo(repo)).map((t) => toApiTeam(t, view));
    },
  });

  repo.add({
    method: 'GET',
    path: '/teams/{team}',
    operationId: 'repoCheckTeam',
    summary: 'Check if a team is assigned to a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 200, description: 'Team', schema: TeamSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, repo, params, view }) => {
      assertOrgRepo(repo);
      return toApiTeam(await host.teams.repoTeam(repo, params.team), view);
    },
  });

  repoAdmin.add({
    method: 'PUT',
    path: '/teams/{team}',
    operationId: 'repoAddTeam',
    summary: 'Add a team to a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params }) => {
      assertOrgRepo(repo);
      await host.teams.changeRepoTeam(actor, repo, params.team, true);
    },
  });

  repoAdmin.add({
    method: 'DELETE',
    path: '/teams/{team}',
    operationId: 'repoDeleteTeam',
    summary: 'Delete a team from a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params }) => {
      assertOrgRepo(repo);
      await host.teams.changeRepoTeam(actor, repo, params.team, false);
    },
  });
}
