import { Type } from '@sinclair/typebox';
import { IssueConfigSchema, IssueConfigValidationSchema, IssueTemplateSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Issue templates and the issue config of the default branch: `/issue_templates`, `/issue_config[/validate]`. */
export function registerIssueTemplateRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/issue_templates',
    operationId: 'repoGetIssueTemplates',
    summary: 'Get available issue templates for a repository',
    reply: { status: 200, description: 'IssueTemplates', schema: Type.Array(IssueTemplateSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo }) => host.issueTemplates.list(actor, repo),
  });

  repo.add({
    method: 'GET',
    path: '/issue_config',
    operationId: 'repoGetIssueConfig',
    summary: 'Returns the issue config for a repo',
    reply: { status: 200, description: 'RepoIssueConfig', schema: IssueConfigSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo }) => (await host.issueTemplates.config(actor, repo)).config,
  });

  repo.add({
    method: 'GET',
    path: '/issue_config/validate',
    operationId: 'repoValidateIssueConfig',
    summary: 'Returns the validation information for a issue config',
    reply: { status: 200, description: 'RepoIssueConfigValidation', schema: IssueConfigValidationSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo }) => host.issueTemplates.validateConfig(actor, repo),
  });
}
