import { Type, type Static } from '@sinclair/typebox';

/** Name and text of a .gitignore template. */
export const GitignoreTemplateInfoSchema = Type.Object(
  {
    name: Type.String(),
    source: Type.String(),
  },
  { $id: 'GitignoreTemplateInfo' },
);

/** One license template in the list (`GET /licenses`). */
export const LicensesTemplateListEntrySchema = Type.Object(
  {
    key: Type.String(),
    name: Type.String(),
    url: Type.String(),
  },
  { $id: 'LicensesTemplateListEntry' },
);

/** A license template with its text (`GET /licenses/{name}`). */
export const LicenseTemplateInfoSchema = Type.Object(
  {
    key: Type.String(),
    name: Type.String(),
    url: Type.String(),
    body: Type.String(),
    implementation: Type.String(),
  },
  { $id: 'LicenseTemplateInfo' },
);

/** One label of a label set. */
export const LabelTemplateSchema = Type.Object(
  {
    name: Type.String(),
    exclusive: Type.Boolean(),
    /** Six hex digits, without `#`. */
    color: Type.String(),
    description: Type.String(),
  },
  { $id: 'LabelTemplate' },
);

/** A list of template names (`GET /gitignore/templates`, `GET /label/templates`). */
export const TemplateNamesSchema = Type.Array(Type.String());

export type ApiGitignoreTemplateInfo = Static<typeof GitignoreTemplateInfoSchema>;
export type ApiLicensesTemplateListEntry = Static<typeof LicensesTemplateListEntrySchema>;
export type ApiLicenseTemplateInfo = Static<typeof LicenseTemplateInfoSchema>;
export type ApiLabelTemplate = Static<typeof LabelTemplateSchema>;
