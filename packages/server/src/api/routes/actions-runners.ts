import {
  ActionRunJobSchema,
  ActionRunnerSchema,
  RegisterRunnerOptionsSchema,
  RegisterRunnerResponseSchema,
  RegistrationTokenSchema,
  RunnersService,
  toApiActionRunner,
  type RepoAccess,
  type RunnersOwner,
  type User,
} from '@repohost/core';
import { Type } from '@sinclair/typebox';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { RequestBase } from '../contract.js';
import type { Groups } from '../groups.js';
import { pathId } from './common.js';

type Loaded = Record<string, unknown>;

/** One level's operations: Forgejo's operation ids and summaries, and whose runners its path names. */
interface RunnersLevel {
  owner: (loaded: Loaded) => RunnersOwner;
  /** The word Forgejo's descriptions use for the level ("repository", "organization", "user", "instance"). */
  noun: string;
  token: [operationId: string, summary: string];
  list: [operationId: string, summary: string];
  register: [operationId: string, summary: string];
  get: [operationId: string, summary: string];
  remove: [operationId: string, summary: string];
  jobs: [operationId: string, summary: string];
}

const VisibleQuery = (noun: string) =>
  Type.Object({
    visible: Type.Optional(
      Type.Boolean({ description: `whether to include all visible runners (true) or only those that are directly owned by the ${noun} (false)` }),
    ),
  });

const LabelsQuery = Type.Object({
  labels: Type.Optional(Type.String({ description: 'a comma separated list of run job labels to search for' })),
});

/** `{runner_id}`, read as Forgejo reads an id in the path. */
const runnerId = (params: unknown) => pathId((params as { runner_id: string }).runner_id);

const service = (ctx: RequestBase<unknown>) => ctx.host.service(RunnersService);

/** A level's runner operations, under `/actions/runners` of its group. */
function registerLevel(group: RouteGroup<string, Loaded, true>, level: RunnersLevel): void {
  const owner = (ctx: unknown) => level.owner(ctx as Loaded);
  addRegistrationToken(group, '/actions/runners/registration-token', level.token, owner);
  addJobs(group, '/actions/runners/jobs', level.jobs, owner);

  group.add({
    method: 'GET',
    path: '/actions/runners',
    operationId: level.list[0],
    summary: level.list[1],
    query: VisibleQuery(level.noun),
    reply: { status: 200, description: 'ActionRunnerList', list: ActionRunnerSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      const now = Math.floor(Date.now() / 1000);
      const page = await service(ctx).list(ctx.actor, owner(ctx), { visible: ctx.query.visible }, ctx.page);
      return mapPage(page, (runner) => toApiActionRunner(runner, now));
    },
  });

  group.add({
    method: 'POST',
    path: '/actions/runners',
    operationId: level.register[0],
    summary: level.register[1],
    body: RegisterRunnerOptionsSchema,
    reply: { status: 201, description: 'RegisterRunnerResponse', schema: RegisterRunnerResponseSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async (ctx) => {
      const { runner, token } = await service(ctx).register(ctx.actor, owner(ctx), ctx.body);
      return { id: runner.id, uuid: runner.uuid, token };
    },
  });

  group.add({
    method: 'GET',
    path: '/actions/runners/{runner_id}',
    operationId: level.get[0],
    summary: level.get[1],
    reply: { status: 200, description: 'ActionRunner', schema: ActionRunnerSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => toApiActionRunner(await service(ctx).get(ctx.actor, owner(ctx), runnerId(ctx.params))),
  });

  group.add({
    method: 'DELETE',
    path: '/actions/runners/{runner_id}',
    operationId: level.remove[0],
    summary: level.remove[1],
    reply: { status: 204, description: 'runner has been deleted' },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => {
      await service(ctx).delete(ctx.actor, owner(ctx), runnerId(ctx.params));
    },
  });
}

function addRegistrationToken(group: RouteGroup<string, Loaded, true>, path: string, [operationId, summary]: [string, string], owner: (ctx: unknown) => RunnersOwner): void {
  group.add({
    method: 'GET',
    path,
    operationId,
    summary,
    reply: { status: 200, description: 'RegistrationToken', schema: RegistrationTokenSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => ({ token: await service(ctx).registrationToken(ctx.actor, owner(ctx)) }),
  });
}

function addJobs(group: RouteGroup<string, Loaded, true>, path: string, [operationId, summary]: [string, string], owner: (ctx: unknown) => RunnersOwner): void {
  group.add({
    method: 'GET',
    path,
    operationId,
    summary,
    query: LabelsQuery,
    reply: { status: 200, description: 'RunJobList', schema: Type.Array(ActionRunJobSchema) },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async (ctx) => service(ctx).waitingJobs(ctx.actor, owner(ctx), ctx.query.labels),
  });
}

/**
 * Runners and their registration tokens at the four levels Forgejo has them: a repository's (its owners), an
 * organization's (its owners), the signed-in user's, and the instance's (site administrators, `/admin`).
 */
export function registerActionsRunnerRoutes(_router: ApiRouter, { repoOwner, orgOwner, me, admin }: Groups): void {
  registerLevel(repoOwner as unknown as RouteGroup<string, Loaded, true>, {
    owner: (loaded) => ({ kind: 'repo', access: loaded.repo as RepoAccess }),
    noun: 'repository',
    token: ['repoGetRunnerRegistrationToken', "Get a repository's runner registration token"],
    list: ['getRepoRunners', 'Get runners belonging to the repository'],
    register: ['registerRepoRunner', 'Register a new repository-level runner'],
    get: ['getRepoRunner', 'Get a particular runner that belongs to the repository'],
    remove: ['deleteRepoRunner', 'Delete a particular runner that belongs to a repository'],
    jobs: ['repoSearchRunJobs', "Search for repository's action jobs according filter conditions"],
  });

  registerLevel(orgOwner as unknown as RouteGroup<string, Loaded, true>, {
    owner: (loaded) => ({ kind: 'org', org: loaded.org as User }),
    noun: 'organization',
    token: ['orgGetRunnerRegistrationToken', "Get the organization's runner registration token"],
    list: ['getOrgRunners', "Get the organization's runners"],
    register: ['registerOrgRunner', 'Register a new organization-level runner'],
    get: ['getOrgRunner', 'Get a particular runner that belongs to the organization'],
    remove: ['deleteOrgRunner', 'Delete a particular runner that belongs to the organization'],
    jobs: ['orgSearchRunJobs', "Search for organization's action jobs according filter conditions"],
  });

  registerLevel(me as unknown as RouteGroup<string, Loaded, true>, {
    owner: (loaded) => ({ kind: 'user', user: loaded.me as User }),
    noun: 'user',
    token: ['userGetRunnerRegistrationToken', "Get the user's runner registration token"],
    list: ['getUserRunners', "Get the user's runners"],
    register: ['registerUserRunner', 'Register a new user-level runner'],
    get: ['getUserRunner', 'Get a particular runner that belongs to the user'],
    remove: ['deleteUserRunner', 'Delete a particular user-level runner'],
    jobs: ['userSearchRunJobs', "Search for user's action jobs according filter conditions"],
  });

  const global = admin as unknown as RouteGroup<string, Loaded, true>;
  const instance = (): RunnersOwner => ({ kind: 'global' });
  registerLevel(global, {
    owner: instance,
    noun: 'instance',
    token: ['adminGetRunnerRegistrationToken', 'Get a runner registration token for registering global runners'],
    list: ['getAdminRunners', 'Get all runners, no matter whether they are global runners or scoped to an organization, user, or repository'],
    register: ['registerAdminRunner', 'Register a new global runner'],
    get: ['getAdminRunner', 'Get a particular runner, no matter whether it is a global runner or scoped to an organization, user, or repository'],
    remove: ['deleteAdminRunner', 'Delete a particular runner, no matter whether it is a global runner or scoped to an organization, user, or repository'],
    jobs: ['adminGetActionRunJobs', 'Get action run jobs'],
  });
  // The older paths of the instance's token and jobs (deprecated in the reference, still used).
  addRegistrationToken(global, '/runners/registration-token', ['adminGetRegistrationToken', 'Get a runner registration token for registering global runners'], instance);
  addJobs(global, '/runners/jobs', ['adminSearchRunJobs', 'Search action jobs according to filter conditions'], instance);
}
