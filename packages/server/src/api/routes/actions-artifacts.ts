import { ActionArtifactSchema, ArtifactListQuerySchema, ArtifactsService, toApiActionArtifact, type RepoHost } from '@repohost/core';
import { mapPage, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { zipAnswer } from '../../actions/artifacts.js';
import { pathId } from './common.js';

const artifacts = (host: RepoHost) => host.service(ArtifactsService);

/**
 * A repository's workflow artifacts (Forgejo's `routers/api/v1/repo/action.go`): list (the repository's, a run's;
 * by name), read, download the zip, and delete (mark for deletion: the zip goes with the next `cleanup_actions`).
 * Reading needs read access to the Actions unit, deleting write access.
 */
export function registerActionsArtifactRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/actions/artifacts',
    operationId: 'ListActionArtifacts',
    summary: "List a repository's artifacts",
    query: ArtifactListQuerySchema,
    reply: { status: 200, description: 'ActionArtifactList', list: ActionArtifactSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, repo, query, page, view }) => mapPage(await artifacts(host).list(repo, { name: query.name }, page), (a) => toApiActionArtifact(a, repo, view)),
  });
  repo.add({
    method: 'GET',
    path: '/actions/runs/{run_id}/artifacts',
    operationId: 'ListActionRunArtifacts',
    summary: 'List artifacts of a workflow run',
    query: ArtifactListQuerySchema,
    reply: { status: 200, description: 'ActionArtifactList', list: ActionArtifactSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, repo, params, query, page, view }) =>
      mapPage(await artifacts(host).listOfRun(repo, pathId(params.run_id), { name: query.name }, page), (a) => toApiActionArtifact(a, repo, view)),
  });
  repo.add({
    method: 'GET',
    path: '/actions/artifacts/{artifact_id}',
    operationId: 'GetActionArtifact',
    summary: 'Get an artifact by ID',
    reply: { status: 200, description: 'ActionArtifact', schema: ActionArtifactSchema },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, repo, params, view }) => toApiActionArtifact(await artifacts(host).get(repo, pathId(params.artifact_id)), repo, view),
  });
  repo.add({
    method: 'DELETE',
    path: '/actions/artifacts/{artifact_id}',
    operationId: 'DeleteActionArtifact',
    summary: 'Mark an artifact for deletion',
    reply: { status: 204, description: 'artifact marked for deletion' },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => artifacts(host).delete(actor, repo, pathId(params.artifact_id)),
  });
  repo.add({
    method: 'GET',
    path: '/actions/artifacts/{artifact_id}/zip',
    operationId: 'DownloadActionArtifact',
    summary: 'Download an artifact',
    reply: { status: 200, description: 'the artifact archive', produces: ['application/zip'] },
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, repo, params }) => zipAnswer(await artifacts(host).zip(repo, pathId(params.artifact_id))),
  });
}
