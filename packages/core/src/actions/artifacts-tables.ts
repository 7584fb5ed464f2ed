import type { Generated, Selectable } from 'kysely';

/** An artifact's state (Forgejo's `ArtifactStatus`). */
export const ArtifactStatus = {
  /** Created; its blocks are arriving. */
  UploadPending: 1,
  /** Finalized: its zip is stored and it may be downloaded. */
  UploadConfirmed: 2,
  /** The upload failed or was abandoned; nothing of it is kept. */
  UploadError: 3,
  /** Past `expired_unix`: its zip was removed, the row stays for the run's page. */
  Expired: 4,
  /** Deleted through the API or the protocol; `cleanup_actions` removes its zip. */
  PendingDeletion: 5,
  /** Its zip is gone. */
  Deleted: 6,
} as const;
export type ArtifactStatusValue = (typeof ArtifactStatus)[keyof typeof ArtifactStatus];

/**
 * An artifact (Forgejo's `action_artifact`): what one run uploaded under one name. The v4 protocol stores one zip
 * per artifact (`artifact_path` is `<name>.zip`, `content_encoding` `application/zip`).
 */
export interface ActionArtifactTable {
  id: Generated<number>;
  run_id: number;
  runner_id: number;
  repo_id: number;
  owner_id: number;
  commit_sha: string;
  /** The zip's key in the `actions_artifacts` blob space ('' until finalized). */
  storage_path: string;
  file_size: number;
  file_compressed_size: number;
  content_encoding: string;
  artifact_path: string;
  artifact_name: string;
  /** `ArtifactStatus`. */
  status: number;
  /** The committed block order of an upload under way (a JSON array of block keys); '' before the commit. */
  block_list: string;
  /** Hex SHA-256 of the stored zip ('' until finalized). */
  hash_sha256: string;
  created_unix: number;
  updated_unix: number;
  /** When it expires (seconds since the epoch). */
  expired_unix: number;
}

/** A block of an upload under way: its bytes are in the blob space under `artifactBlockKey`. */
export interface ActionArtifactBlockTable {
  artifact_id: number;
  /** Hex SHA-256 of the client's block id (an id is any string; its hash is a safe blob key). */
  block_key: string;
  size: number;
  created_unix: number;
}

export interface ArtifactsTables {
  action_artifact: ActionArtifactTable;
  action_artifact_block: ActionArtifactBlockTable;
}

export type ActionArtifact = Selectable<ActionArtifactTable>;

declare module '../storage/schema.js' {
  interface Schema extends ArtifactsTables {}
}
