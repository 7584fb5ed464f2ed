import { Type } from '@sinclair/typebox';
import {
  GitignoreTemplateInfoSchema,
  LabelTemplateSchema,
  LicensesTemplateListEntrySchema,
  LicenseTemplateInfoSchema,
  TemplateNamesSchema,
  type RepoHost,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';

type RepoTemplates = RepoHost['repoTemplates'];

/** Each kind of template: its path, operation ids, summaries, replies, its names and one of them. */
const TEMPLATES = [
  {
    path: '/gitignore/templates', operations: ['listGitignoresTemplates', 'getGitignoreTemplateInfo'],
    summaries: ['Returns a list of all gitignore templates', 'Returns information about a gitignore template'],
    replies: [{ status: 200, description: 'GitignoreTemplateList', schema: TemplateNamesSchema }, { status: 200, description: 'GitignoreTemplateInfo', schema: GitignoreTemplateInfoSchema }],
    names: (templates: RepoTemplates) => templates.gitignoreNames(), read: (templates: RepoTemplates, name: string) => templates.gitignore(name),
  },
  {
    path: '/licenses', operations: ['listLicenseTemplates', 'getLicenseTemplateInfo'],
    summaries: ['Returns a list of all license templates', 'Returns information about a license template'],
    replies: [{ status: 200, description: 'LicenseTemplateList', schema: Type.Array(LicensesTemplateListEntrySchema) }, { status: 200, description: 'LicenseTemplateInfo', schema: LicenseTemplateInfoSchema }],
    names: (templates: RepoTemplates) => templates.licenseNames(), read: (templates: RepoTemplates, name: string) => templates.license(name),
  },
  {
    path: '/label/templates', operations: ['listLabelTemplates', 'getLabelTemplateInfo'],
    summaries: ['Returns a list of all label templates', 'Returns all labels in a template'],
    replies: [{ status: 200, description: 'LabelTemplateList', schema: TemplateNamesSchema }, { status: 200, description: 'LabelTemplateInfo', schema: Type.Array(LabelTemplateSchema) }],
    names: (templates: RepoTemplates) => templates.labelSetNames(), read: (templates: RepoTemplates, name: string) => templates.labelSet(name),
  },
] as const;

/**
 * The template lists a repository can be created from: .gitignore, license and label set templates. Public like
 * `/version` (Forgejo's "public accessible" misc group): no authentication, no token scope.
 */
export function registerTemplateRoutes(router: ApiRouter): void {
  for (const { path, operations, summaries, replies, names, read } of TEMPLATES) {
    router.add({
      method: 'GET',
      path,
      operationId: operations[0],
      summary: summaries[0],
      tag: 'miscellaneous',
      reply: replies[0],
      handler: async ({ host }) => names(host.repoTemplates),
    });
    router.add({
      method: 'GET',
      path: `${path}/{name}`,
      operationId: operations[1],
      summary: summaries[1],
      tag: 'miscellaneous',
      reply: replies[1],
      errors: ['not_found'],
      handler: async ({ host, params }) => read(host.repoTemplates, params.name),
    });
  }
}
