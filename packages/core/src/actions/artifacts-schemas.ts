import { Type, type Static } from '@sinclair/typebox';

/** Forgejo's `ActionArtifact`: an artifact of a workflow run as the API v1 shows it. */
export const ActionArtifactSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64', description: "the artifact's ID" }),
    name: Type.String({ description: "the artifact's name" }),
    size_in_bytes: Type.Integer({ format: 'int64', description: 'the total size of the artifact in bytes' }),
    archive_download_url: Type.String({ description: 'the URL to download the artifact zip archive' }),
    expired: Type.Boolean({ description: 'whether the artifact has expired' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    run_id: Type.Integer({ format: 'int64', description: 'the ID of the workflow run that produced this artifact' }),
  },
  { $id: 'ActionArtifact', description: 'ActionArtifact represents an artifact of a workflow run' },
);
export type ApiActionArtifact = Static<typeof ActionArtifactSchema>;

/** The `name` filter of the artifact lists. */
export const ArtifactListQuerySchema = Type.Object({
  name: Type.Optional(Type.String({ description: 'filter by artifact name' })),
});
