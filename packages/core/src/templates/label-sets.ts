import type { ApiLabelTemplate } from './schemas.js';

/**
 * The label sets Forgejo ships (options/label): their names, colors, descriptions and exclusive flags are facts
 * clients rely on, so they are kept exactly. Colors are six lower-case hex digits without `#`, as the API shows
 * them (the database stores them with `#`).
 */
const label = (name: string, color: string, description: string, exclusive = false): ApiLabelTemplate => ({ name, exclusive, color, description });

/** `Advanced`: scoped labels; Reviewed, Status and Priority are exclusive scopes. */
const ADVANCED: readonly ApiLabelTemplate[] = [
  label('Kind/Bug', 'ee0701', 'Something is not working'),
  label('Kind/Feature', '0288d1', 'New functionality'),
  label('Kind/Enhancement', '84b6eb', 'Improve existing functionality'),
  label('Kind/Security', '9c27b0', 'This is security issue'),
  label('Kind/Testing', '795548', 'Issue or pull request related to testing'),
  label('Kind/Documentation', '37474f', 'Documentation changes'),
  label('Compat/Breaking', 'c62828', "Breaking change that won't be backward compatible"),
  label('Reviewed/Duplicate', '616161', 'This issue or pull request already exists', true),
  label('Reviewed/Invalid', '546e7a', 'Invalid issue', true),
  label('Reviewed/Confirmed', '795548', 'Issue has been confirmed', true),
  label("Reviewed/Won't Fix", 'eeeeee', "This issue won't be fixed", true),
  label('Status/Need More Info', '424242', 'Feedback is required to reproduce issue or to continue work', true),
  label('Status/Blocked', '880e4f', 'Something is blocking this issue or pull request', true),
  label('Status/Abandoned', '222222', 'Somebody has started to work on this but abandoned work', true),
  label('Priority/Critical', 'b71c1c', 'The priority is critical', true),
  label('Priority/High', 'd32f2f', 'The priority is high', true),
  label('Priority/Medium', 'e64a19', 'The priority is medium', true),
  label('Priority/Low', '4caf50', 'The priority is low', true),
];

/** `Default`: the classic unscoped labels. */
const DEFAULT: readonly ApiLabelTemplate[] = [
  label('bug', 'ee0701', 'Something is not working'),
  label('duplicate', 'cccccc', 'This issue or pull request already exists'),
  label('enhancement', '84b6eb', 'New feature'),
  label('help wanted', '128a0c', 'Need some help'),
  label('invalid', 'e6e6e6', 'Something is wrong'),
  label('question', 'cc317c', 'More information is needed'),
  label('wontfix', 'ffffff', "This won't be fixed"),
];

/** Label sets by name, in the order Forgejo lists them (its file names, sorted). */
export const LABEL_SETS: ReadonlyMap<string, readonly ApiLabelTemplate[]> = new Map([
  ['Advanced', ADVANCED],
  ['Default', DEFAULT],
]);
