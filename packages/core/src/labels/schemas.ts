import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';

/** The API `Label` record. */
export const LabelSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    exclusive: Type.Boolean(),
    is_archived: Type.Boolean(),
    color: Type.String({ examples: ['00aabb'] }),
    description: Type.String(),
    url: Type.String(),
  },
  { $id: 'Label', description: 'Label a label to an issue or a pr' },
);
export type ApiLabel = Static<typeof LabelSchema>;

/** Orderings of a label list (`sort`); absent: alphabetical. */
export const LABEL_SORTS = ['alphabetically', 'reversealphabetically', 'leastissues', 'mostissues'] as const;
export type LabelSort = (typeof LABEL_SORTS)[number];
export const LabelSortSchema = StringEnum(LABEL_SORTS, { description: 'Specifies the sorting method: mostissues, leastissues, or reversealphabetically.' });

/** `POST /repos/{owner}/{repo}/labels`, `POST /orgs/{org}/labels`. */
export const CreateLabelOptionSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    color: Type.String({ minLength: 1, examples: ['#00aabb'] }),
    description: Type.Optional(Type.String()),
    exclusive: Type.Optional(Type.Boolean({ examples: [false] })),
    is_archived: Type.Optional(Type.Boolean({ examples: [false] })),
  },
  { $id: 'CreateLabelOption', description: 'CreateLabelOption options for creating a label' },
);
export type CreateLabelOption = Static<typeof CreateLabelOptionSchema>;

/** `PATCH /repos/{owner}/{repo}/labels/{id}`, `PATCH /orgs/{org}/labels/{id}`. */
export const EditLabelOptionSchema = Type.Object(
  {
    name: Type.Optional(Type.String()),
    color: Type.Optional(Type.String({ examples: ['#00aabb'] })),
    description: Type.Optional(Type.String()),
    exclusive: Type.Optional(Type.Boolean({ examples: [false] })),
    is_archived: Type.Optional(Type.Boolean({ examples: [false] })),
  },
  { $id: 'EditLabelOption', description: 'EditLabelOption options for editing a label' },
);
export type EditLabelOption = Static<typeof EditLabelOptionSchema>;

/** `POST`/`PUT /repos/{owner}/{repo}/issues/{index}/labels`: label ids, or label names (not both). */
export const IssueLabelsOptionSchema = Type.Object(
  {
    labels: Type.Optional(
      Type.Array(Type.Unknown(), { description: 'Labels can be a list of integers representing label IDs\nor a list of strings representing label names' }),
    ),
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'IssueLabelsOption', description: 'IssueLabelsOption a collection of labels' },
);
export type IssueLabelsOption = Static<typeof IssueLabelsOptionSchema>;

/** The body `DELETE …/issues/{index}/labels[/{identifier}]` may carry. */
export const DeleteLabelsOptionSchema = Type.Object(
  {
    updated_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'DeleteLabelsOption', description: 'DeleteLabelOption options for deleting a label' },
);
export type DeleteLabelsOption = Static<typeof DeleteLabelsOptionSchema>;
