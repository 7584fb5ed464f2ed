import { Type, type Static } from '@sinclair/typebox';

/** `POST /markdown`: none of the fields is required. */
export const MarkdownOptionSchema = Type.Object(
  {
    Context: Type.Optional(Type.String({ description: 'Context to render' })),
    Mode: Type.Optional(Type.String({ description: 'Mode to render (comment, gfm, markdown)' })),
    Text: Type.Optional(Type.String({ description: 'Text markdown to render' })),
    Wiki: Type.Optional(Type.Boolean({ description: 'Is it a wiki page ?' })),
  },
  { $id: 'MarkdownOption', description: 'MarkdownOption markdown options' },
);
export type MarkdownOption = Static<typeof MarkdownOptionSchema>;

/** `POST /markup`: none of the fields is required; `file` mode picks the renderer from `FilePath`. */
export const MarkupOptionSchema = Type.Object(
  {
    BranchPath: Type.Optional(Type.String({ description: 'The current branch path where the form gets posted' })),
    Context: Type.Optional(Type.String({ description: 'Context to render' })),
    FilePath: Type.Optional(Type.String({ description: 'File path for detecting extension in file mode' })),
    Mode: Type.Optional(Type.String({ description: 'Mode to render (comment, gfm, markdown, file)' })),
    Text: Type.Optional(Type.String({ description: 'Text markup to render' })),
    Wiki: Type.Optional(Type.Boolean({ description: 'Is it a wiki page ?' })),
  },
  { $id: 'MarkupOption', description: 'MarkupOption markup options' },
);
export type MarkupOption = Static<typeof MarkupOptionSchema>;

/** How a text is rendered. */
export const MARKUP_MODES = ['comment', 'gfm', 'markdown', 'file'] as const;
export type MarkupMode = (typeof MARKUP_MODES)[number];
