import { isoTime, type ApiView } from '../wire.js';
import { apiUrl } from '../urls.js';
import type { RepoAccess } from '../repos/index.js';
import type { ApiActionArtifact } from './artifacts-schemas.js';
import { ArtifactStatus, type ActionArtifact } from './artifacts-tables.js';

/** Forgejo's `ToActionArtifact`: the artifact, with the API URL of its zip. */
export function toApiActionArtifact(artifact: ActionArtifact, access: Pick<RepoAccess, 'owner' | 'repo'>, view: ApiView): ApiActionArtifact {
  return {
    id: artifact.id,
    name: artifact.artifact_name,
    size_in_bytes: Number(artifact.file_size),
    archive_download_url: apiUrl(view.settings, `/repos/${encodeURIComponent(access.owner.name)}/${encodeURIComponent(access.repo.name)}/actions/artifacts/${artifact.id}/zip`),
    expired: artifact.status === ArtifactStatus.Expired,
    created_at: isoTime(artifact.created_unix),
    updated_at: isoTime(artifact.updated_unix),
    expires_at: isoTime(artifact.expired_unix),
    run_id: artifact.run_id,
  };
}
