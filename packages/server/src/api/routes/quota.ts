/**
 * Quotas (Forgejo's): rules and groups for site administrators (`/admin/quota…`), an account's groups
 * (`/admin/users/{username}/quota…`), the signed-in user's own quota (`/user/quota…`) and an organization's, for
 * its owners (`/orgs/{org}/quota…`). Forgejo mounts these
 * only while `[quota] ENABLED` is set, so with quotas off every one of them is a 404, before anything else.
 */
import { Type } from '@sinclair/typebox';
import {
  CreateQuotaGroupOptionsSchema,
  CreateQuotaRuleOptionsSchema,
  EditQuotaRuleOptionsSchema,
  ForbiddenError,
  NotFoundError,
  QuotaGroupListSchema,
  QuotaGroupSchema,
  QuotaInfoSchema,
  QuotaRuleInfoSchema,
  QuotaUsedArtifactSchema,
  QuotaUsedAttachmentSchema,
  QuotaUsedPackageSchema,
  SetUserQuotaGroupsOptionsSchema,
  UnauthorizedError,
  UserSchema,
  actorUser,
  isSiteAdmin,
  toApiUser,
  type Actor,
  type RepoHost,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** 404 while quotas are off: Forgejo does not mount the routes then. */
function assertQuotaEnabled(host: RepoHost): void {
  if (!host.quota.enabled) throw new NotFoundError();
}

/** Forgejo's reqToken + reqSiteAdmin. */
function assertSiteAdmin(actor: Actor): void {
  if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
  if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
}

const SubjectQuery = Type.Object({
  // Optional here so that a missing subject gets Forgejo's own 422 (it parses an empty name).
  subject: Type.Optional(Type.String({ description: 'subject of the quota' })),
});

export function registerQuotaRoutes(router: ApiRouter, { org }: Groups): void {
  const adminQuota = router.group('/admin/quota', async ({ host, actor }) => {
    assertQuotaEnabled(host);
    assertSiteAdmin(actor);
    return {};
  });

  // ---- rules ----
  adminQuota.add({
    method: 'GET',
    path: '/rules',
    operationId: 'adminListQuotaRules',
    summary: 'List the available quota rules',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 200, description: 'QuotaRuleInfoList', schema: Type.Array(QuotaRuleInfoSchema) },
    errors: ['forbidden'],
    handler: async ({ host, actor }) => host.quota.listRules(actor),
  });

  adminQuota.add({
    method: 'POST',
    path: '/rules',
    operationId: 'adminCreateQuotaRule',
    summary: 'Create a new quota rule',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: CreateQuotaRuleOptionsSchema,
    reply: { status: 201, description: 'QuotaRuleInfo', schema: QuotaRuleInfoSchema },
    errors: ['bad_request', 'forbidden', 'conflict', 'validation'],
    handler: async ({ host, actor, body }) => host.quota.createRule(actor, body),
  });

  adminQuota.add({
    method: 'GET',
    path: '/rules/{quotarule}',
    operationId: 'adminGetQuotaRule',
    summary: 'Get information about a quota rule',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 200, description: 'QuotaRuleInfo', schema: QuotaRuleInfoSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.getRule(actor, params.quotarule),
  });

  adminQuota.add({
    method: 'PATCH',
    path: '/rules/{quotarule}',
    operationId: 'adminEditQuotaRule',
    summary: 'Change an existing quota rule',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: EditQuotaRuleOptionsSchema,
    reply: { status: 200, description: 'QuotaRuleInfo', schema: QuotaRuleInfoSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, params, body }) => host.quota.editRule(actor, params.quotarule, body),
  });

  adminQuota.add({
    method: 'DELETE',
    path: '/rules/{quotarule}',
    operationId: 'adminDEleteQuotaRule',
    summary: 'Deletes a quota rule',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.deleteRule(actor, params.quotarule),
  });

  // ---- groups ----
  adminQuota.add({
    method: 'GET',
    path: '/groups',
    operationId: 'adminListQuotaGroups',
    summary: 'List the available quota groups',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 200, description: 'QuotaGroupList', schema: QuotaGroupListSchema },
    errors: ['forbidden'],
    handler: async ({ host, actor }) => host.quota.listGroups(actor),
  });

  adminQuota.add({
    method: 'POST',
    path: '/groups',
    operationId: 'adminCreateQuotaGroup',
    summary: 'Create a new quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: CreateQuotaGroupOptionsSchema,
    reply: { status: 201, description: 'QuotaGroup', schema: QuotaGroupSchema },
    errors: ['bad_request', 'forbidden', 'conflict', 'validation'],
    handler: async ({ host, actor, body }) => host.quota.createGroup(actor, body),
  });

  adminQuota.add({
    method: 'GET',
    path: '/groups/{quotagroup}',
    operationId: 'adminGetQuotaGroup',
    summary: 'Get information about the quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 200, description: 'QuotaGroup', schema: QuotaGroupSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.getGroup(actor, params.quotagroup),
  });

  adminQuota.add({
    method: 'DELETE',
    path: '/groups/{quotagroup}',
    operationId: 'adminDeleteQuotaGroup',
    summary: 'Delete a quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.deleteGroup(actor, params.quotagroup),
  });

  adminQuota.add({
    method: 'PUT',
    path: '/groups/{quotagroup}/rules/{quotarule}',
    operationId: 'adminAddRuleToQuotaGroup',
    summary: 'Adds a rule to a quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, params }) => host.quota.addRuleToGroup(actor, params.quotagroup, params.quotarule),
  });

  adminQuota.add({
    method: 'DELETE',
    path: '/groups/{quotagroup}/rules/{quotarule}',
    operationId: 'adminRemoveRuleFromQuotaGroup',
    summary: 'Removes a rule from a quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    // The reference documents 201; Forgejo answers 204, as every other removal does.
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.removeRuleFromGroup(actor, params.quotagroup, params.quotarule),
  });

  adminQuota.add({
    method: 'GET',
    path: '/groups/{quotagroup}/users',
    operationId: 'adminListUsersInQuotaGroup',
    summary: 'List users in a quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 200, description: 'UserList', schema: Type.Array(UserSchema) },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params, view }) => (await host.quota.listMembers(actor, params.quotagroup)).map((u) => toApiUser(u, view)),
  });

  adminQuota.add({
    method: 'PUT',
    path: '/groups/{quotagroup}/users/{username}',
    operationId: 'adminAddUserToQuotaGroup',
    summary: 'Add a user to a quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, params }) => host.quota.addMember(actor, params.quotagroup, await host.users.resolve(actor, params.username)),
  });

  adminQuota.add({
    method: 'DELETE',
    path: '/groups/{quotagroup}/users/{username}',
    operationId: 'adminRemoveUserFromQuotaGroup',
    summary: 'Remove a user from a quota group',
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.removeMember(actor, params.quotagroup, await host.users.resolve(actor, params.username)),
  });

  // ---- an account, by a site administrator ----
  const adminUserQuota = router.group('/admin/users/{username}/quota', async ({ host, actor, params }) => {
    assertQuotaEnabled(host);
    assertSiteAdmin(actor);
    return { account: await host.users.resolve(actor, params.username) };
  });

  adminUserQuota.add({
    method: 'GET',
    path: '',
    operationId: 'adminGetUserQuota',
    summary: "Get the user's quota info",
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    reply: { status: 200, description: 'QuotaInfo', schema: QuotaInfoSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, account }) => host.quota.info(actor, account),
  });

  adminUserQuota.add({
    method: 'POST',
    path: '/groups',
    operationId: 'adminSetUserQuotaGroups',
    summary: "Set the user's quota groups to a given list.",
    tag: 'admin',
    auth: 'token',
    scopes: ['admin'],
    body: SetUserQuotaGroupsOptionsSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, account, body }) => host.quota.setGroupsOf(actor, account, body),
  });

  // ---- the signed-in user's own ----
  const myQuota = router.group('/user/quota', async ({ host, actor }) => {
    assertQuotaEnabled(host);
    const me = actorUser(actor);
    if (!me) throw new UnauthorizedError('token is required');
    return { me };
  });

  myQuota.add({
    method: 'GET',
    path: '',
    operationId: 'userGetQuota',
    summary: 'Get quota information for the authenticated user',
    tag: 'user',
    auth: 'token',
    scopes: ['user'],
    reply: { status: 200, description: 'QuotaInfo', schema: QuotaInfoSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me }) => host.quota.info(actor, me),
  });

  myQuota.add({
    method: 'GET',
    path: '/check',
    operationId: 'userCheckQuota',
    summary: 'Check if the authenticated user is over quota for a given subject',
    tag: 'user',
    auth: 'token',
    scopes: ['user'],
    query: SubjectQuery,
    reply: { status: 200, description: 'Returns true if the action is accepted.', schema: Type.Boolean() },
    errors: ['unauthorized', 'forbidden', 'validation'],
    handler: async ({ host, actor, me, query }) => host.quota.check(actor, me, query.subject ?? ''),
  });

  myQuota.add({
    method: 'GET',
    path: '/attachments',
    operationId: 'userListQuotaAttachments',
    summary: "List the attachments affecting the authenticated user's quota",
    tag: 'user',
    auth: 'token',
    scopes: ['user'],
    reply: { status: 200, description: 'QuotaUsedAttachmentList', list: QuotaUsedAttachmentSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page }) => host.quota.listAttachments(actor, me, page),
  });

  myQuota.add({
    method: 'GET',
    path: '/packages',
    operationId: 'userListQuotaPackages',
    summary: "List the packages affecting the authenticated user's quota",
    tag: 'user',
    auth: 'token',
    scopes: ['user'],
    reply: { status: 200, description: 'QuotaUsedPackageList', list: QuotaUsedPackageSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page }) => host.quota.listPackages(actor, me, page),
  });

  myQuota.add({
    method: 'GET',
    path: '/artifacts',
    operationId: 'userListQuotaArtifacts',
    summary: "List the artifacts affecting the authenticated user's quota",
    tag: 'user',
    auth: 'token',
    scopes: ['user'],
    reply: { status: 200, description: 'QuotaUsedArtifactList', list: QuotaUsedArtifactSchema },
    errors: ['unauthorized', 'forbidden'],
    handler: async ({ host, actor, me, page }) => host.quota.listArtifacts(actor, me, page),
  });
  // ---- an organization's, for its owners (Forgejo's reqToken + reqOrgOwnership) ----
  const orgQuota = org.nest('/quota', async ({ host, actor }) => {
    assertQuotaEnabled(host);
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    return {};
  });

  orgQuota.add({
    method: 'GET',
    path: '',
    operationId: 'orgGetQuota',
    summary: 'Get quota information for an organization',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'QuotaInfo', schema: QuotaInfoSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, org }) => host.quota.info(actor, org),
  });

  orgQuota.add({
    method: 'GET',
    path: '/check',
    operationId: 'orgCheckQuota',
    summary: 'Check if the organization is over quota for a given subject',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    query: SubjectQuery,
    reply: { status: 200, description: 'Returns true if the action is accepted.', schema: Type.Boolean() },
    errors: ['forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, org, query }) => host.quota.check(actor, org, query.subject ?? ''),
  });

  orgQuota.add({
    method: 'GET',
    path: '/attachments',
    operationId: 'orgListQuotaAttachments',
    summary: "List the attachments affecting the organization's quota",
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'QuotaUsedAttachmentList', list: QuotaUsedAttachmentSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, org, page }) => host.quota.listAttachments(actor, org, page),
  });

  orgQuota.add({
    method: 'GET',
    path: '/packages',
    operationId: 'orgListQuotaPackages',
    summary: "List the packages affecting the organization's quota",
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'QuotaUsedPackageList', list: QuotaUsedPackageSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, org, page }) => host.quota.listPackages(actor, org, page),
  });

  orgQuota.add({
    method: 'GET',
    path: '/artifacts',
    operationId: 'orgListQuotaArtifacts',
    summary: "List the artifacts affecting the organization's quota",
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'QuotaUsedArtifactList', list: QuotaUsedArtifactSchema },
    errors: ['forbidden', 'not_found'],
    handler: async ({ host, actor, org, page }) => host.quota.listArtifacts(actor, org, page),
  });
}
