import { Type, type Static } from '@sinclair/typebox';

export const ServerVersionSchema = Type.Object({ version: Type.String() }, { $id: 'ServerVersion' });

export const GeneralAPISettingsSchema = Type.Object(
  {
    max_response_items: Type.Integer({ format: 'int64' }),
    default_paging_num: Type.Integer({ format: 'int64' }),
    default_git_trees_per_page: Type.Integer({ format: 'int64' }),
    default_max_blob_size: Type.Integer({ format: 'int64' }),
  },
  { $id: 'GeneralAPISettings' },
);

export const GeneralRepoSettingsSchema = Type.Object(
  {
    mirrors_disabled: Type.Boolean(),
    http_git_disabled: Type.Boolean(),
    migrations_disabled: Type.Boolean(),
    stars_disabled: Type.Boolean(),
    forks_disabled: Type.Boolean(),
    time_tracking_disabled: Type.Boolean(),
    lfs_disabled: Type.Boolean(),
  },
  { $id: 'GeneralRepoSettings' },
);

export const GeneralUISettingsSchema = Type.Object(
  {
    default_theme: Type.String(),
    allowed_reactions: Type.Array(Type.String()),
    custom_emojis: Type.Array(Type.String()),
  },
  { $id: 'GeneralUISettings' },
);

export const GeneralAttachmentSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    allowed_types: Type.String(),
    /** Megabytes, as configured. */
    max_size: Type.Integer({ format: 'int64' }),
    max_files: Type.Integer({ format: 'int64' }),
  },
  { $id: 'GeneralAttachmentSettings' },
);

export type ServerVersion = Static<typeof ServerVersionSchema>;
export type GeneralAPISettings = Static<typeof GeneralAPISettingsSchema>;
export type GeneralRepoSettings = Static<typeof GeneralRepoSettingsSchema>;
export type GeneralUISettings = Static<typeof GeneralUISettingsSchema>;
export type GeneralAttachmentSettings = Static<typeof GeneralAttachmentSettingsSchema>;
