import { Type } from '@sinclair/typebox';
import {
  CreateHookOptionSchema,
  EditHookOptionSchema,
  HookDeliveryItemSchema,
  HookDeliverySchema,
  HookSchema,
  toApiHook,
  toApiHookDelivery,
  toApiHookDeliveryItem,
  type HookOwner,
  type RepoAccess,
  type User,
} from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY, pathId } from './common.js';

interface HookRoutesSpec {
  /** `repo`, `org`, `user`, `admin`: operation id prefixes. */
  prefix: string;
  /** What the path names, from what the group loaded. */
  owner: (loaded: Loaded) => HookOwner;
  listQuery?: boolean;
}

type Loaded = Record<string, unknown>;

/**
 * The hook operations under one path (`/repos/{owner}/{repo}/hooks`, `/orgs/{org}/hooks`, `/user/hooks`,
 * `/admin/hooks`): list, create, read, edit, delete, and the deliveries of each hook. The group gives their tag,
 * `auth` and scope.
 */
function registerHookSet<P extends string>(group: RouteGroup<P, Loaded, true>, spec: HookRoutesSpec): void {
  const ownerOf = spec.owner;
  const { prefix } = spec;
  const id = (params: unknown) => pathId((params as { id: string }).id);
  const deliveryId = (params: unknown) => pathId((params as { delivery_id: string }).delivery_id);
  group.add({
    method: 'GET',
    path: '',
    operationId: `${prefix}ListHooks`,
    summary: 'List the hooks',
    query: spec.listQuery
      ? Type.Object({ type: Type.Optional(Type.String({ enum: ['system', 'default', 'all'], description: 'system, default or both (default: system)' })) })
      : undefined,
    reply: { status: 200, description: 'HookList', list: HookSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      const owner = ownerOf(ctx as unknown as Loaded);
      const which = (ctx.query as { type?: 'system' | 'default' | 'all' } | Record<string, never>).type;
      const page = await ctx.host.webhooks.list(ctx.actor, owner.kind === 'admin' ? { kind: 'admin', which: which ?? 'system' } : owner, ctx.page);
      return mapPage(page, (h) => toApiHook(h));
    },
  });

  group.add({
    method: 'POST',
    path: '',
    operationId: `${prefix}CreateHook`,
    summary: 'Create a hook',
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
    reply: { status: 200, description: 'HookDeliveryList', list: HookDeliveryItemSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      const page = await ctx.host.webhooks.deliveries(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params), ctx.page);
      return mapPage(page, toApiHookDeliveryItem);
    },
  });

  group.add({
    method: 'GET',
    path: '/{id}/deliveries/{delivery_id}',
    operationId: `${prefix}GetHookDelivery`,
    summary: 'Get one delivery of a hook, with its request and response',
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
    reply: { status: 202, description: 'Accepted', schema: Type.Object({}) },
    // 409: an attempt of it is being sent right now (by this process or another).
    errors: ['unauthorized', 'forbidden', 'not_found', 'conflict'],
    handler: async (ctx) => {
      await ctx.host.webhooks.redeliver(ctx.actor, ownerOf(ctx as unknown as Loaded), id(ctx.params), deliveryId(ctx.params));
      return {};
    },
  });
}

/** Webhooks of repositories, organizations, the signed-in user, and the site (system and default hooks). */
export function registerWebhookRoutes(_router: ApiRouter, { repoHooks, orgHooks, userHooks, adminHooks }: Groups): void {
  registerHookSet(repoHooks as unknown as RouteGroup<string, Loaded, true>, {
    prefix: 'repo',
    owner: (loaded) => ({ kind: 'repo', access: loaded.repo as RepoAccess }),
  });

  repoHooks.add({
    method: 'POST',
    path: '/{id}/tests',
    operationId: 'repoTestHook',
    summary: 'Test a push webhook',
    query: Type.Object({ ref: Type.Optional(Type.String({ description: 'The name of the commit/branch/tag, indicates which commit will be loaded to the webhook payload.' })) }),
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params, query }) => {
      await host.webhooks.test(actor, repo, pathId(params.id), query.ref || undefined);
    },
  });

  registerHookSet(orgHooks as unknown as RouteGroup<string, Loaded, true>, {
    prefix: 'org',
    owner: (loaded) => ({ kind: 'org', org: loaded.org as User }),
  });

  registerHookSet(userHooks as unknown as RouteGroup<string, Loaded, true>, {
    prefix: 'user',
    owner: (loaded) => ({ kind: 'user', user: loaded.me as User }),
  });

  registerHookSet(adminHooks as unknown as RouteGroup<string, Loaded, true>, {
    prefix: 'admin',
    owner: () => ({ kind: 'admin' }),
    listQuery: true,
  });
}
