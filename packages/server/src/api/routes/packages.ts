import { Type } from '@sinclair/typebox';
import { ListPackagesQuerySchema, PackageFileSchema, PackageSchema, PackagesService, toApiPackageFile } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

const EMPTY_CREATED = { status: 201, description: 'APIEmpty is an empty response' } as const;

/**
 * The package API (Forgejo's `routers/api/v1/packages`), mounted only while `[packages] ENABLED`: an owner's
 * versions, one version, its files, its deletion, and linking a package to one of the owner's repositories. Every
 * route needs a token (reqToken) and the `package` scope; core checks the owner's package access (403 without it).
 */
export function registerPackageRoutes(_router: ApiRouter, { packageOwner: owner }: Groups): void {
  owner.add({
    method: 'GET',
    path: '',
    operationId: 'listPackages',
    summary: 'Gets all packages of an owner',
    query: ListPackagesQuerySchema,
    reply: { status: 200, description: 'PackageList', list: PackageSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, owner, query, page, view }) => {
      const service = host.service(PackagesService);
      const { items, total } = await service.list(actor, owner, query, page);
      return { items: await service.present(view, owner, items), total };
    },
  });

  owner.add({
    method: 'GET',
    path: '/{type}/{name}/{version}',
    operationId: 'getPackage',
    summary: 'Gets a package',
    reply: { status: 200, description: 'Package', schema: PackageSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, owner, params, view }) => {
      const service = host.service(PackagesService);
      const version = await service.get(actor, owner, params);
      return (await service.present(view, owner, [version]))[0]!;
    },
  });

  owner.add({
    method: 'DELETE',
    path: '/{type}/{name}/{version}',
    operationId: 'deletePackage',
    summary: 'Delete a package',
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['not_found'],
    handler: async ({ host, actor, owner, params }) => host.service(PackagesService).deleteVersion(actor, owner, params),
  });

  owner.add({
    method: 'GET',
    path: '/{type}/{name}/{version}/files',
    operationId: 'listPackageFiles',
    summary: 'Gets all files of a package',
    reply: { status: 200, description: 'PackageFileList', schema: Type.Array(PackageFileSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, owner, params }) => (await host.service(PackagesService).files(actor, owner, params)).map(toApiPackageFile),
  });

  owner.add({
    method: 'POST',
    path: '/{type}/{name}/-/link/{repo_name}',
    operationId: 'linkPackage',
    summary: 'Link a package to a repository',
    reply: EMPTY_CREATED,
    errors: ['not_found'],
    handler: async ({ host, actor, owner, params }) => host.service(PackagesService).link(actor, owner, params.type, params.name, params.repo_name),
  });

  owner.add({
    method: 'POST',
    path: '/{type}/{name}/-/unlink',
    operationId: 'unlinkPackage',
    summary: 'Unlink a package from a repository',
    reply: EMPTY_CREATED,
    errors: ['not_found'],
    handler: async ({ host, actor, owner, params }) => host.service(PackagesService).unlink(actor, owner, params.type, params.name),
  });
}
