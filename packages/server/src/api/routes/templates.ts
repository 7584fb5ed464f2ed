import { Type } from '@sinclair/typebox';
import { GitignoreTemplateInfoSchema, LabelTemplateSchema, LicensesTemplateListEntrySchema, LicenseTemplateInfoSchema, TemplateNamesSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';

/**
 * The template lists a repository can be created from: .gitignore, license and label set templates. Public like
 * `/version` (Forgejo's "public accessible" misc group): no authentication, no token scope.
 */
export function registerTemplateRoutes(router: ApiRouter): void {
  router.add({
    method: 'GET',
    path: '/gitignore/templates',
    operationId: 'listGitignoresTemplates',
    summary: 'Returns a list of all gitignore templates',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'GitignoreTemplateList', schema: TemplateNamesSchema },
    handler: async ({ host }) => host.repoTemplates.gitignoreNames(),
  });
  router.add({
    method: 'GET',
    path: '/gitignore/templates/{name}',
    operationId: 'getGitignoreTemplateInfo',
    summary: 'Returns information about a gitignore template',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'GitignoreTemplateInfo', schema: GitignoreTemplateInfoSchema },
    errors: ['not_found'],
    handler: async ({ host, params }) => host.repoTemplates.gitignore(params.name),
  });
  router.add({
    method: 'GET',
    path: '/licenses',
    operationId: 'listLicenseTemplates',
    summary: 'Returns a list of all license templates',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'LicenseTemplateList', schema: Type.Array(LicensesTemplateListEntrySchema) },
    handler: async ({ host }) => host.repoTemplates.licenseNames(),
  });
  router.add({
    method: 'GET',
    path: '/licenses/{name}',
    operationId: 'getLicenseTemplateInfo',
    summary: 'Returns information about a license template',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'LicenseTemplateInfo', schema: LicenseTemplateInfoSchema },
    errors: ['not_found'],
    handler: async ({ host, params }) => host.repoTemplates.license(params.name),
  });
  router.add({
    method: 'GET',
    path: '/label/templates',
    operationId: 'listLabelTemplates',
    summary: 'Returns a list of all label templates',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'LabelTemplateList', schema: TemplateNamesSchema },
    handler: async ({ host }) => host.repoTemplates.labelSetNames(),
  });
  router.add({
    method: 'GET',
    path: '/label/templates/{name}',
    operationId: 'getLabelTemplateInfo',
    summary: 'Returns all labels in a template',
    tag: 'miscellaneous',
    reply: { status: 200, description: 'LabelTemplateInfo', schema: Type.Array(LabelTemplateSchema) },
    errors: ['not_found'],
    handler: async ({ host, params }) => host.repoTemplates.labelSet(params.name),
  });
}
