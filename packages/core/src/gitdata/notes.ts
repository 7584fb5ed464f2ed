import { Type, type Static } from '@sinclair/typebox';
import { CommitSchema } from '../commits/index.js';

/** `GET /repos/{owner}/{repo}/git/notes/{sha}`: a note and the notes commit that last wrote it. */
export const NoteSchema = Type.Object(
  { commit: CommitSchema, message: Type.String() },
  { $id: 'Note', description: 'Note contains information related to a git note' },
);
export type ApiNote = Static<typeof NoteSchema>;

/** `GET /git/notes/{sha}` query. */
export const NoteQuerySchema = Type.Object({
  verification: Type.Optional(Type.Boolean({ description: "include verification for every commit (disable for speedup, default 'true')" })),
  files: Type.Optional(Type.Boolean({ description: "include a list of affected files for every commit (disable for speedup, default 'true')" })),
});
export type NoteQuery = Static<typeof NoteQuerySchema>;

/** `POST /git/notes/{sha}` body: the note's text (git's message cleanup applies; empty removes the note). */
export const NoteOptionsSchema = Type.Object(
  { message: Type.Optional(Type.String()) },
  { $id: 'NoteOptions' },
);
export type NoteOptions = Static<typeof NoteOptionsSchema>;

/** `GET /git/blobs?shas=a,b`: the comma-separated blob ids (at most `[api] MAX_RESPONSE_ITEMS` are read). */
export const GitBlobsQuerySchema = Type.Object({
  shas: Type.Optional(Type.String({ description: 'a comma separated list of blob-sha (mind the overall URL-length limit of ~2,083 chars)' })),
});
export type GitBlobsQuery = Static<typeof GitBlobsQuerySchema>;
