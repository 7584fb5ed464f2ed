/**
 * Quotas (Forgejo's): rules and groups for site administrators (`/admin/quota…`), an account's groups
 * (`/admin/users/{username}/quota…`), the signed-in user's own quota (`/user/quota…`) and an organization's, for
 * its owners (`/orgs/{org}/quota…`). Forgejo mounts these
 * only while `[quota] ENABLED` is set, so with quotas off every one of them is a 404, before anything else.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CreateQuotaGroupOptionsSchema,
  CreateQuotaRuleOptionsSchema,
  EditQuotaRuleOptionsSchema,
  QuotaGroupListSchema,
  QuotaGroupSchema,
  QuotaInfoSchema,
  QuotaRuleInfoSchema,
  QuotaUsedArtifactSchema,
  QuotaUsedAttachmentSchema,
  QuotaUsedPackageSchema,
  SetUserQuotaGroupsOptionsSchema,
  UserSchema,
  toApiUser,
  type Actor,
  type RepoHost,
  type RepoHostErrorKind,
  type User,
} from '@repohost/core';
import type { ApiRouter, RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

const SubjectQuery = Type.Object({
  // Optional here so that a missing subject gets Forgejo's own 422 (it parses an empty name).
  subject: Type.Optional(Type.String({ description: 'subject of the quota' })),
});

/** What an account's quota reads (`/user/quota…`, `/orgs/{org}/quota…`) differ in. */
interface QuotaReads<Loaded> {
  /** `user`, `org`: operation id prefixes. */
  prefix: string;
  /** Whose quota, as the summaries say it. */
  whose: string;
  infoSummary: string;
  /** The errors each route documents (the check adds 422). */
  errors: readonly RepoHostErrorKind[];
  /** The account, from what the group loaded. */
  account: (loaded: Loaded) => User;
}

/** What uses an account's quota, as listed: path, operation id part, reply, and the service's list. */
const QUOTA_USES = [
  ['attachments', 'Attachments', 'QuotaUsedAttachmentList', QuotaUsedAttachmentSchema, 'listAttachments'],
  ['packages', 'Packages', 'QuotaUsedPackageList', QuotaUsedPackageSchema, 'listPackages'],
  ['artifacts', 'Artifacts', 'QuotaUsedArtifactList', QuotaUsedArtifactSchema, 'listArtifacts'],
] as const;

/** An account's quota: its usage, whether a subject is over it, and the things that use it. */
function registerQuotaReads<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, reads: QuotaReads<Loaded>): void {
  const { prefix, whose, errors, account } = reads;
  group.add({
    method: 'GET',
    path: '',
    operationId: `${prefix}GetQuota`,
    summary: reads.infoSummary,
    reply: { status: 200, description: 'QuotaInfo', schema: QuotaInfoSchema },
    errors,
    handler: async (ctx) => ctx.host.quota.info(ctx.actor, account(ctx)),
  });

  group.add({
    method: 'GET',
    path: '/check',
    operationId: `${prefix}CheckQuota`,
    summary: `Check if ${whose} is over quota for a given subject`,
    query: SubjectQuery,
    reply: { status: 200, description: 'Returns true if the action is accepted.', schema: Type.Boolean() },
    errors: [...errors, 'validation'],
    handler: async (ctx) => ctx.host.quota.check(ctx.actor, account(ctx), ctx.query.subject ?? ''),
  });

  for (const [path, name, description, schema, list] of QUOTA_USES) {
    group.add({
      method: 'GET',
      path: `/${path}`,
      operationId: `${prefix}ListQuota${name}`,
      summary: `List the ${path} affecting ${whose}'s quota`,
      reply: { status: 200, description, list: schema },
      errors,
      handler: async (ctx) => ctx.host.quota[list](ctx.actor, account(ctx), ctx.page),
    });
  }
}

/** What quota rules and groups differ in, as the routes that list, create and read them say it. */
interface QuotaNamed<C extends TSchema> {
  path: '/rules' | '/groups';
  /** The path parameter that names one. */
  param: 'quotarule' | 'quotagroup';
  /** `Rule`, `Group`: as operation ids say it. */
  name: string;
  /** Of the list, the creation and the read. */
  summaries: readonly [string, string, string];
  /** Descriptions and schemas of the list and of one. */
  replies: readonly [readonly [string, TSchema], readonly [string, TSchema]];
  create: C;
  operations: (quota: RepoHost['quota']) => {
    list(actor: Actor): Promise<unknown[]>;
    create(actor: Actor, input: Static<C>): Promise<unknown>;
    get(actor: Actor, name: string): Promise<unknown>;
  };
}

/** `GET` and `POST /admin/quota/{rules|groups}`, `GET …/{name}`: the quota rules or groups, listed, created, read. */
function addQuotaNamed<C extends TSchema>(adminQuota: Groups['adminQuota'], named: QuotaNamed<C>): void {
  const { path, name, summaries, replies: [[listDescription, listSchema], [description, schema]], operations } = named;
  adminQuota.add({
    method: 'GET',
    path,
    operationId: `adminListQuota${name}s`,
    summary: summaries[0],
    reply: { status: 200, description: listDescription, schema: listSchema },
    errors: ['forbidden'],
    handler: async ({ host, actor }) => operations(host.quota).list(actor),
  });

  adminQuota.add({
    method: 'POST',
    path,
    operationId: `adminCreateQuota${name}`,
    summary: summaries[1],
    body: named.create,
    reply: { status: 201, description, schema },
    errors: ['bad_request', 'forbidden', 'conflict', 'validation'],
    handler: async ({ host, actor, body }) => operations(host.quota).create(actor, body as Static<C>),
  });

  adminQuota.add({
    method: 'GET',
    path: `${path}/{${named.param}}`,
    operationId: `adminGetQuota${name}`,
    summary: summaries[2],
    reply: { status: 200, description, schema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => operations(host.quota).get(actor, (params as Record<string, string>)[named.param]!),
  });
}

export function registerQuotaRoutes(_router: ApiRouter, { adminQuota, adminUserQuota, myQuota, orgQuota }: Groups): void {
  // ---- rules ----
  addQuotaNamed(adminQuota, {
    path: '/rules',
    param: 'quotarule',
    name: 'Rule',
    summaries: ['List the available quota rules', 'Create a new quota rule', 'Get information about a quota rule'],
    replies: [['QuotaRuleInfoList', Type.Array(QuotaRuleInfoSchema)], ['QuotaRuleInfo', QuotaRuleInfoSchema]],
    create: CreateQuotaRuleOptionsSchema,
    operations: (quota) => ({ list: (actor) => quota.listRules(actor), create: (actor, input) => quota.createRule(actor, input), get: (actor, name) => quota.getRule(actor, name) }),
  });

  adminQuota.add({
    method: 'PATCH',
    path: '/rules/{quotarule}',
    operationId: 'adminEditQuotaRule',
    summary: 'Change an existing quota rule',
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
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.deleteRule(actor, params.quotarule),
  });

  // ---- groups ----
  addQuotaNamed(adminQuota, {
    path: '/groups',
    param: 'quotagroup',
    name: 'Group',
    summaries: ['List the available quota groups', 'Create a new quota group', 'Get information about the quota group'],
    replies: [['QuotaGroupList', QuotaGroupListSchema], ['QuotaGroup', QuotaGroupSchema]],
    create: CreateQuotaGroupOptionsSchema,
    operations: (quota) => ({ list: (actor) => quota.listGroups(actor), create: (actor, input) => quota.createGroup(actor, input), get: (actor, name) => quota.getGroup(actor, name) }),
  });

  adminQuota.add({
    method: 'DELETE',
    path: '/groups/{quotagroup}',
    operationId: 'adminDeleteQuotaGroup',
    summary: 'Delete a quota group',
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.deleteGroup(actor, params.quotagroup),
  });

  adminQuota.add({
    method: 'PUT',
    path: '/groups/{quotagroup}/rules/{quotarule}',
    operationId: 'adminAddRuleToQuotaGroup',
    summary: 'Adds a rule to a quota group',
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, params }) => host.quota.addRuleToGroup(actor, params.quotagroup, params.quotarule),
  });

  adminQuota.add({
    method: 'DELETE',
    path: '/groups/{quotagroup}/rules/{quotarule}',
    operationId: 'adminRemoveRuleFromQuotaGroup',
    summary: 'Removes a rule from a quota group',
    // The reference documents 201; Forgejo answers 204, as every other removal does.
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.removeRuleFromGroup(actor, params.quotagroup, params.quotarule),
  });

  adminQuota.add({
    method: 'GET',
    path: '/groups/{quotagroup}/users',
    operationId: 'adminListUsersInQuotaGroup',
    summary: 'List users in a quota group',
    reply: { status: 200, description: 'UserList', schema: Type.Array(UserSchema) },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params, view }) => (await host.quota.listMembers(actor, params.quotagroup)).map((u) => toApiUser(u, view)),
  });

  adminQuota.add({
    method: 'PUT',
    path: '/groups/{quotagroup}/users/{username}',
    operationId: 'adminAddUserToQuotaGroup',
    summary: 'Add a user to a quota group',
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found', 'conflict', 'validation'],
    handler: async ({ host, actor, params }) => host.quota.addMember(actor, params.quotagroup, await host.users.resolve(actor, params.username)),
  });

  adminQuota.add({
    method: 'DELETE',
    path: '/groups/{quotagroup}/users/{username}',
    operationId: 'adminRemoveUserFromQuotaGroup',
    summary: 'Remove a user from a quota group',
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, params }) => host.quota.removeMember(actor, params.quotagroup, await host.users.resolve(actor, params.username)),
  });

  // ---- an account, by a site administrator ----
  adminUserQuota.add({
    method: 'GET',
    path: '',
    operationId: 'adminGetUserQuota',
    summary: "Get the user's quota info",
    reply: { status: 200, description: 'QuotaInfo', schema: QuotaInfoSchema },
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user }) => host.quota.info(actor, user),
  });

  adminUserQuota.add({
    method: 'POST',
    path: '/groups',
    operationId: 'adminSetUserQuotaGroups',
    summary: "Set the user's quota groups to a given list.",
    body: SetUserQuotaGroupsOptionsSchema,
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, user, body }) => host.quota.setGroupsOf(actor, user, body),
  });

  // ---- the signed-in user's own, and an organization's for its owners (core checks ownership) ----
  registerQuotaReads(myQuota, {
    prefix: 'user',
    whose: 'the authenticated user',
    infoSummary: 'Get quota information for the authenticated user',
    errors: ['unauthorized', 'forbidden'],
    account: ({ me }) => me,
  });
  registerQuotaReads(orgQuota, {
    prefix: 'org',
    whose: 'the organization',
    infoSummary: 'Get quota information for an organization',
    errors: ['forbidden', 'not_found'],
    account: ({ org }) => org,
  });
}
