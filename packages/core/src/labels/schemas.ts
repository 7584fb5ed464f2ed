import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/validate.js';

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
