import { Type, type Static } from '@sinclair/typebox';

export const NewIssuePinsAllowedSchema = Type.Object(
  { issues: Type.Boolean(), pull_requests: Type.Boolean() },
  { $id: 'NewIssuePinsAllowed', description: 'NewIssuePinsAllowed represents an API response that says if new Issue Pins are allowed' },
);
export type ApiNewIssuePinsAllowed = Static<typeof NewIssuePinsAllowedSchema>;
