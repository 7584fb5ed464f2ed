import { Type, type Static } from '@sinclair/typebox';

export const IssueFormFieldSchema = Type.Object(
  {
    type: Type.String({ title: 'IssueFormFieldType defines issue form field type, can be "markdown", "textarea", "input", "dropdown" or "checkboxes"' }),
    id: Type.String(),
    attributes: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    validations: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    visible: Type.Union([Type.Array(Type.String({ description: 'IssueFormFieldVisible defines issue form field visible' })), Type.Null()]),
  },
  { $id: 'IssueFormField', description: 'IssueFormField represents a form field' },
);
export type ApiIssueFormField = Static<typeof IssueFormFieldSchema>;

export const IssueTemplateSchema = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    about: Type.String(),
    labels: Type.Union([Type.Array(Type.String()), Type.Null()]),
    ref: Type.String(),
    content: Type.String(),
    /** The form's fields (YAML issue forms); null for a markdown template. */
    body: Type.Union([Type.Array(IssueFormFieldSchema), Type.Null()]),
    file_name: Type.String(),
  },
  { $id: 'IssueTemplate', description: 'IssueTemplate represents an issue template for a repository' },
);
export type ApiIssueTemplate = Static<typeof IssueTemplateSchema>;

export const IssueConfigContactLinkSchema = Type.Object(
  { name: Type.String(), url: Type.String(), about: Type.String() },
  { $id: 'IssueConfigContactLink' },
);

export const IssueConfigSchema = Type.Object(
  {
    blank_issues_enabled: Type.Boolean(),
    contact_links: Type.Array(IssueConfigContactLinkSchema),
  },
  { $id: 'IssueConfig' },
);
export type ApiIssueConfig = Static<typeof IssueConfigSchema>;

export const IssueConfigValidationSchema = Type.Object(
  { valid: Type.Boolean(), message: Type.String() },
  { $id: 'IssueConfigValidation' },
);
export type ApiIssueConfigValidation = Static<typeof IssueConfigValidationSchema>;
