import { Type } from '@sinclair/typebox';
import {
  AccessMode,
  CreateHookOptionSchema,
  EditHookOptionSchema,
  ForbiddenError,
  HookDeliveryItemSchema,
  HookDeliverySchema,
  HookSchema,
  UnauthorizedError,
  toApiHook,
  toApiHookDelivery,
  toApiHookDeliveryItem,
  type HookOwner,
  type RepoAccess,
  type ScopeCategory,
  type User,
} from '@repohost/core';
import type { ApiRouter, RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';

/** Go's `strconv.ParseInt` syntax, as Forgejo reads an `{id}` path parameter (anything else reads as 0). */
const PATH_ID = /^[+-]?\d{1,19}$/;
const pathId = (value: string) => (PATH_ID.test(value) ? Number(value) : 0);

const EMPTY = { status: 204, description: 'APIEmpty is an empty response' } as const;

interface HookRoutesSpec {
  /** `repo`, `org`, `user`, `admin`: operation id prefixes. */
  prefix: string;
  tag: string;
  scope: ScopeCategory;
  /** What the path names, from what the group loaded. */
  owner: (loaded: Loaded) => HookOwner;
  listQuery?: boolean;
}

type Loaded = Record<string, unknown>;

/**
 * The hook operations under one path (`/repos/{owner}/{repo}/hooks`, `/orgs/{org}/hooks`, `/user/hooks`,
 * `/admin/hooks`): list, create, read, edit, delete, and the deliveries of each hook.
 */
function registerHookSet<P extends string>(group: RouteGroup<P, Loaded>, spec: HookRoutesSpec): void {
  const ownerOf = spec.owner;
  const { prefix, tag, scope } = spec;
  const scopes = [scope] as const;
  const id = (params: unknown) => pathId((params as { id: string }).id);
  const deliveryId = (params: unknown) => pathId((params as { delivery_id: string }).delivery_id);
  group.add({
    method: 'GET',
    path: '',
    operationId: `${prefix}ListHooks`,
    summary: 'List the hooks',
    tag,
    auth: 'token',
    scopes,
    query: spec.listQuery
      ? Type.Object({ type: Type.Optional(Type.String({ enum: ['system', 'default', 'all'], description: 'system, default or both (default: system)' })) })
      : undefined,
    reply: { status: 200, description: 'HookList', list: HookSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      const owner = ownerOf(ctx as unknown as Loaded);
      const which = (ctx.query as { type?: 'system' | 'default' | 'all' } | Record<string, never>).type;
      const page = await ctx.host.webhooks.list(ctx.actor, owner.kind === 'admin' ? { kind: 'admin', which: which ?? 'system' } : owner, ctx.page);
      return { items: page.items.map((h) => toApiHook(h)), total: page.total };
    },
  });

  group.add({
    method: 'POST',
    path: '',
    operationId: `${prefix}CreateHook`,
    summary: 'Create a hook',
    tag,
    auth: 'token',
    scopes,
    body: CreateHookOptionSchema,
    reply: { status: 201, description: 'Hook', schema: HookSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async (ctx) => {
      const hook = await ctx.host.webhooks.create(ctx.actor, ownerOf(ctx as unknown as Loaded), ctx.body);
      return toApiHook(hook);
    },
  });

  group.add({
    method: 'GET',
    path: '/{id}',
    operationId: `${prefix}GetHook`,
    summary: 'Get a hook',
    tag,
    auth: 'token',
    scopes,
    reply: { status: 200, description: 'Hook', schema: HookSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      const hook = await ctx.host.webhooks.get(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params));
      return toApiHook(hook);
    },
  });

  group.add({
    method: 'PATCH',
    path: '/{id}',
    operationId: `${prefix}EditHook`,
    summary: 'Update a hook',
    tag,
    auth: 'token',
    scopes,
    body: EditHookOptionSchema,
    reply: { status: 200, description: 'Hook', schema: HookSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async (ctx) => {
      const hook = await ctx.host.webhooks.edit(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params), ctx.body);
      return toApiHook(hook);
    },
  });

  group.add({
    method: 'DELETE',
    path: '/{id}',
    operationId: `${prefix}DeleteHook`,
    summary: 'Delete a hook',
    tag,
    auth: 'token',
    scopes,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      await ctx.host.webhooks.delete(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params));
    },
  });

  group.add({
    method: 'GET',
    path: '/{id}/deliveries',
    operationId: `${prefix}ListHookDeliveries`,
    summary: "List a hook's deliveries (one per attempt), newest first",
    tag,
    auth: 'token',
    scopes,
    reply: { status: 200, description: 'HookDeliveryList', list: HookDeliveryItemSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      const page = await ctx.host.webhooks.deliveries(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params), ctx.page);
      return { items: page.items.map(toApiHookDeliveryItem), total: page.total };
    },
  });

  group.add({
    method: 'GET',
    path: '/{id}/deliveries/{delivery_id}',
    operationId: `${prefix}GetHookDelivery`,
    summary: 'Get one delivery of a hook, with its request and response',
    tag,
    auth: 'token',
    scopes,
    reply: { status: 200, description: 'HookDelivery', schema: HookDeliverySchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) =>
      toApiHookDelivery(await ctx.host.webhooks.deliveryOf(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params), deliveryId(ctx.params))),
  });

  group.add({
    method: 'POST',
    path: '/{id}/deliveries/{delivery_id}/attempts',
    operationId: `${prefix}RedeliverHook`,
    summary: 'Deliver a delivery again (same delivery id and body), as a new attempt',
    tag,
    auth: 'token',
    scopes,
    reply: { status: 202, description: 'Accepted', schema: Type.Object({}) },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      await ctx.host.webhooks.redeliver(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params), deliveryId(ctx.params));
      return {};
    },
  });
}

/** Webhooks of repositories, organizations, the signed-in user, and the site (system and default hooks). */
export function registerWebhookRoutes(_router: ApiRouter, { repo, org, me, admin }: Groups): void {
  // Forgejo's reqToken and reqAdmin, before the body is read; the service checks again, for embedders.
  const repoHooks = repo.nest('/hooks', async ({ actor, repo }) => {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (repo.mode < AccessMode.Admin) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
    return {};
  });
  registerHookSet(repoHooks as unknown as RouteGroup<string, Loaded>, {
    prefix: 'repo',
    tag: 'repository',
    scope: 'repository',
    owner: (loaded) => ({ kind: 'repo', access: loaded.repo as RepoAccess }),
  });

  repoHooks.add({
    method: 'POST',
    path: '/{id}/tests',
    operationId: 'repoTestHook',
    summary: 'Test a push webhook',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    query: Type.Object({ ref: Type.Optional(Type.String({ description: 'The name of the commit/branch/tag, indicates which commit will be loaded to the webhook payload.' })) }),
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params, query }) => {
      await host.webhooks.test(actor, repo, pathId(params.id), query.ref || undefined);
    },
  });

  const orgHooks = org.nest('/hooks', async ({ host, actor, org }) => {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    await host.orgs.assertOwner(actor, org);
    return {};
  });
  registerHookSet(orgHooks as unknown as RouteGroup<string, Loaded>, {
    prefix: 'org',
    tag: 'organization',
    scope: 'organization',
    owner: (loaded) => ({ kind: 'org', org: loaded.org as User }),
  });

  const userHooks = me.nest('/hooks', async () => ({}));
  registerHookSet(userHooks as unknown as RouteGroup<string, Loaded>, {
    prefix: 'user',
    tag: 'user',
    scope: 'user',
    owner: (loaded) => ({ kind: 'user', user: loaded.me as User }),
  });

  const adminHooks = admin.nest('/hooks', async () => ({}));
  registerHookSet(adminHooks as unknown as RouteGroup<string, Loaded>, {
    prefix: 'admin',
    tag: 'admin',
    scope: 'admin',
    owner: () => ({ kind: 'admin' }),
    listQuery: true,
  });
}
