import {
  CreateOrgOptionSchema,
  CreateRepoOptionSchema,
  EditOrgOptionSchema,
  OrganizationPermissionsSchema,
  OrganizationSchema,
  RenameOrgOptionSchema,
  RepositorySchema,
  UserSchema,
  NotFoundError,
  UnauthorizedError,
  apiUrl,
  toApiOrganization,
  toApiRepository,
  type Actor,
  type ApiView,
  type CreateRepoOption,
  type RepoHost,
  type User,
} from '@repohost/core';
import type { ApiRouter, RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { addAvatarRoutes } from './user-settings.js';
import { EMPTY, addChanges, apiOrganizations, apiUsers, type AccountRoute } from './common.js';

/**
 * What the owners' writes to an organization answer besides success: no token (401), a caller who is no owner (403,
 * Forgejo's reqOrgOwnership), no organization the caller may see (404), refused input (422).
 */
const OWNER_WRITE_ERRORS = ['unauthorized', 'forbidden', 'not_found', 'validation'] as const;

/** `GET …/orgs`: the organizations of the account (`account`, from what the group loaded) the caller may see. */
function addOrgList<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, { account, ...route }: AccountRoute<Loaded>): void {
  group.add({
    ...route,
    method: 'GET',
    path: '/orgs',
    tag: 'organization',
    scopes: ['user', 'organization'],
    reply: { status: 200, description: 'OrganizationList', list: OrganizationSchema },
    handler: async (ctx) => apiOrganizations(await ctx.host.orgs.listOfUser(ctx.actor, account(ctx), ctx.page), ctx.view),
  });
}

/**
 * Organizations: `/orgs` (create, list), `/orgs/{org}` (read, edit, delete, rename, avatar, repositories,
 * members and public members), `/user/orgs`, `/users/{username}/orgs…`, `/admin/orgs` and
 * `/admin/users/{username}/orgs`, with Forgejo's `reqOrgOwnership` and `reqOrgMembership` checks (403) made
 * before a body is read.
 */
export function registerOrgRoutes(router: ApiRouter, { me, user, org, orgOwner, orgMember, deprecatedOrg, admin, adminUser }: Groups): void {
  router.add({
    method: 'POST',
    path: '/orgs',
    operationId: 'orgCreate',
    summary: 'Create an organization',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    body: CreateOrgOptionSchema,
    reply: { status: 201, description: 'Organization', schema: OrganizationSchema },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, body, view }) => {
      const creator = actor.kind === 'user' ? actor.user : undefined;
      if (!creator) throw new UnauthorizedError('token is required');
      return toApiOrganization(await host.orgs.create(actor, creator, body), view);
    },
  });

  router.add({
    method: 'GET',
    path: '/orgs',
    operationId: 'orgGetAll',
    summary: 'List all organizations',
    tag: 'organization',
    // No scope: Forgejo declares one after the handler, where it is never reached.
    reply: { status: 200, description: 'OrganizationList', list: OrganizationSchema },
    handler: async ({ host, actor, page, view }) => apiOrganizations(await host.orgs.listVisible(actor, page), view),
  });

  org.add({
    method: 'GET',
    path: '',
    operationId: 'orgGet',
    summary: 'Get an organization',
    reply: { status: 200, description: 'Organization', schema: OrganizationSchema },
    errors: ['not_found'],
    handler: async ({ actor, org, view }) => {
      const shown = toApiOrganization(org, view);
      // Forgejo shows no email to anonymous callers.
      return actor.kind === 'anonymous' ? { ...shown, email: '' } : shown;
    },
  });

  orgOwner.add({
    method: 'PATCH',
    path: '',
    operationId: 'orgEdit',
    summary: 'Edit an organization',
    body: EditOrgOptionSchema,
    reply: { status: 200, description: 'Organization', schema: OrganizationSchema },
    errors: OWNER_WRITE_ERRORS,
    handler: async ({ host, actor, org, body, view }) => toApiOrganization(await host.orgs.edit(actor, org, body), view),
  });

  orgOwner.add({
    method: 'DELETE',
    path: '',
    operationId: 'orgDelete',
    summary: 'Delete an organization',
    reply: EMPTY,
    errors: OWNER_WRITE_ERRORS,
    handler: async ({ host, actor, org }) => host.orgLifecycle.delete(actor, org),
  });

  orgOwner.add({
    method: 'POST',
    path: '/rename',
    operationId: 'renameOrg',
    summary: 'Rename an organization',
    body: RenameOrgOptionSchema,
    reply: EMPTY,
    errors: OWNER_WRITE_ERRORS,
    handler: async ({ host, actor, org, body }) => {
      await host.orgLifecycle.rename(actor, org, body);
    },
  });

  addAvatarRoutes(orgOwner, {
    upload: ['orgUpdateAvatar', 'Update Avatar', ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation']],
    remove: ['orgDeleteAvatar', 'Delete Avatar', ['unauthorized', 'forbidden', 'not_found']],
    avatar: ({ host, actor, org }) => ({ upload: (input) => host.orgs.uploadAvatar(actor, org, input), remove: () => host.orgs.removeAvatar(actor, org) }),
  });

  // ---- repositories ----

  org.add({
    method: 'GET',
    path: '/repos',
    operationId: 'orgListRepos',
    summary: "List an organization's repos",
    reply: { status: 200, description: 'RepositoryList', list: RepositorySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, org, page, view }) => {
      const result = await host.repos.listOwnedBy(actor, org, page);
      return { items: (await host.mirrors.withMirrors(result.items)).map((r) => toApiRepository(r, view)), total: result.total };
    },
  });

  // The same operation as `POST /user/repos` (quota included), owned by the organization; `/org/{org}/repos` is its
  // deprecated path, declared alike but for the operation id and the scopes.
  const createOrgRepo = {
    method: 'POST',
    path: '/repos',
    summary: 'Create a repository in an organization',
    auth: 'token',
    body: CreateRepoOptionSchema,
    reply: { status: 201, description: 'Repository', schema: RepositorySchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'quota_exceeded', 'validation'],
    handler: async ({ host, actor, org, body, view }: { host: RepoHost; actor: Actor; org: User; body: CreateRepoOption; view: ApiView }) =>
      toApiRepository(await host.repos.create(actor, body, { owner: org }), view),
  } as const;
  org.add({ ...createOrgRepo, operationId: 'createOrgRepo' });
  // Forgejo asks both scopes here (the route sits outside the `/orgs/{org}` group that asks for organization).
  deprecatedOrg.add({ ...createOrgRepo, operationId: 'createOrgRepoDeprecated', scopes: ['organization', 'repository'] });

  // ---- members ----

  org.add({
    method: 'GET',
    path: '/members',
    operationId: 'orgListMembers',
    summary: "List an organization's members",
    auth: 'token',
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, org, page, view }) => apiUsers(await host.orgs.listMembers(actor, org, { publicList: false, paging: page }), view),
  });

  org.add({
    method: 'GET',
    path: '/members/{username}',
    operationId: 'orgIsMember',
    summary: 'Check if a user is a member of an organization',
    auth: 'token',
    reply: { status: 204, description: 'user is a member' },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, org, params, responseHeaders }) => {
      const member = await host.users.resolve(actor, params.username);
      const answer = await host.orgs.membership(actor, org, member);
      if (answer === 'member') return;
      if (answer === 'not_member') throw new NotFoundError();
      // Callers outside the organization learn only about public memberships: Forgejo sends them there (303).
      const location = apiUrl(host.settings, `/orgs/${encodeURIComponent(org.name)}/public_members/${encodeURIComponent(member.name)}`);
      const headers = { ...responseHeaders, location, 'content-length': '0' };
      return new Response(null, { status: 303, headers });
    },
  });

  orgOwner.add({
    method: 'DELETE',
    path: '/members/{username}',
    operationId: 'orgDeleteMember',
    summary: 'Remove a member from an organization',
    reply: { status: 204, description: 'member removed' },
    errors: OWNER_WRITE_ERRORS,
    handler: async ({ host, actor, org, params }) => host.orgs.removeMember(actor, org, await host.users.resolve(actor, params.username)),
  });

  org.add({
    method: 'GET',
    path: '/public_members',
    operationId: 'orgListPublicMembers',
    summary: "List an organization's public members",
    reply: { status: 200, description: 'UserList', list: UserSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, org, page, view }) => apiUsers(await host.orgs.listMembers(actor, org, { publicList: true, paging: page }), view),
  });

  org.add({
    method: 'GET',
    path: '/public_members/{username}',
    operationId: 'orgIsPublicMember',
    summary: 'Check if a user is a public member of an organization',
    reply: { status: 204, description: 'user is a public member' },
    errors: ['not_found'],
    handler: async ({ host, actor, org, params }) => {
      if (!(await host.orgs.isPublicMember(org, await host.users.resolve(actor, params.username)))) throw new NotFoundError();
    },
  });

  const PUBLIC_MEMBER_ERRORS = ['unauthorized', 'forbidden', 'not_found'] as const;
  addChanges(orgMember, '/public_members/{username}', [
    { method: 'PUT', operationId: 'orgPublicizeMember', summary: "Publicize a user's membership", description: 'membership publicized', errors: PUBLIC_MEMBER_ERRORS },
    { method: 'DELETE', operationId: 'orgConcealMember', summary: "Conceal a user's membership", errors: PUBLIC_MEMBER_ERRORS },
  ], async ({ host, actor, org, params }, publicize) => host.orgs.setMembershipPublic(actor, org, await host.users.resolve(actor, params.username), publicize));

  // ---- an account's organizations ----

  addOrgList(me, { operationId: 'orgListCurrentUserOrgs', summary: "List the current user's organizations", errors: ['unauthorized', 'forbidden'], account: ({ me }) => me });
  addOrgList(user, { operationId: 'orgListUserOrgs', summary: "List a user's organizations", auth: 'token', errors: ['unauthorized', 'not_found'], account: ({ user }) => user });

  user.add({
    method: 'GET',
    path: '/orgs/{org}/permissions',
    operationId: 'orgGetUserPermissions',
    summary: 'Get user permissions in organization',
    tag: 'organization',
    auth: 'token',
    scopes: ['user', 'organization'],
    reply: { status: 200, description: 'OrganizationPermissions', schema: OrganizationPermissionsSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, user, params }) => host.orgs.permissionsFor(actor, user, params.org),
  });

  // ---- site administration ----

  admin.add({
    method: 'GET',
    path: '/orgs',
    operationId: 'adminGetAllOrgs',
    summary: 'List all organizations',
    reply: { status: 200, description: 'OrganizationList', list: OrganizationSchema },
    errors: ['forbidden'],
    handler: async ({ host, actor, page, view }) => apiOrganizations(await host.orgs.listAll(actor, page), view),
  });

  adminUser.add({
    method: 'POST',
    path: '/orgs',
    operationId: 'adminCreateOrg',
    summary: 'Create an organization',
    body: CreateOrgOptionSchema,
    reply: { status: 201, description: 'Organization', schema: OrganizationSchema },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body, view }) => toApiOrganization(await host.orgs.create(actor, user, body), view),
  });
}
