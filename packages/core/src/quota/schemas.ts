import { Type, type Static } from '@sinclair/typebox';

const int64 = (description: string) => Type.Integer({ format: 'int64', description });

/** A rule as the API shows it; `name` only to site administrators. */
export const QuotaRuleInfoSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Name of the rule (only shown to admins)' })),
    limit: int64('The limit set by the rule'),
    subjects: Type.Optional(Type.Array(Type.String(), { description: 'Subjects the rule affects' })),
  },
  { $id: 'QuotaRuleInfo', description: 'QuotaRuleInfo contains information about a quota rule' },
);
export type ApiQuotaRuleInfo = Static<typeof QuotaRuleInfoSchema>;

export const QuotaGroupSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Name of the group' })),
    rules: Type.Array(QuotaRuleInfoSchema, { description: 'Rules associated with the group' }),
  },
  { $id: 'QuotaGroup', description: 'QuotaGroup represents a quota group' },
);
export type ApiQuotaGroup = Static<typeof QuotaGroupSchema>;

export const QuotaGroupListSchema = Type.Array(QuotaGroupSchema, { $id: 'QuotaGroupList', description: 'QuotaGroupList represents a list of quota groups' });

export const QuotaUsedSchema = Type.Object(
  {
    size: Type.Object(
      {
        repos: Type.Object(
          {
            public: int64("Storage size of the user's public repositories"),
            private: int64("Storage size of the user's private repositories"),
          },
          { $id: 'QuotaUsedSizeRepos' },
        ),
        git: Type.Object({ LFS: int64("Storage size of the user's Git LFS objects") }, { $id: 'QuotaUsedSizeGit' }),
        assets: Type.Object(
          {
            attachments: Type.Object(
              {
                issues: int64("Storage size used for the user's issue & comment attachments"),
                releases: int64("Storage size used for the user's release attachments"),
              },
              { $id: 'QuotaUsedSizeAssetsAttachments' },
            ),
            artifacts: int64("Storage size used for the user's artifacts"),
            packages: Type.Object({ all: int64("Storage size used for the user's packages") }, { $id: 'QuotaUsedSizeAssetsPackages' }),
          },
          { $id: 'QuotaUsedSizeAssets' },
        ),
      },
      { $id: 'QuotaUsedSize' },
    ),
  },
  { $id: 'QuotaUsed', description: 'QuotaUsed represents the quota usage of a user' },
);

export const QuotaInfoSchema = Type.Object(
  { used: QuotaUsedSchema, groups: QuotaGroupListSchema },
  { $id: 'QuotaInfo', description: "QuotaInfo represents information about a user's quota" },
);
export type ApiQuotaInfo = Static<typeof QuotaInfoSchema>;

export const CreateQuotaRuleOptionsSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Name of the rule to create' })),
    limit: Type.Optional(int64('The limit set by the rule')),
    subjects: Type.Optional(Type.Array(Type.String(), { description: 'The subjects affected by the rule' })),
  },
  { $id: 'CreateQuotaRuleOptions', description: 'CreateQuotaRuleOptions represents the options for creating a quota rule' },
);
export type CreateQuotaRuleOptions = Static<typeof CreateQuotaRuleOptionsSchema>;

export const EditQuotaRuleOptionsSchema = Type.Object(
  {
    limit: Type.Optional(int64('The limit set by the rule')),
    subjects: Type.Optional(Type.Array(Type.String(), { description: 'The subjects affected by the rule' })),
  },
  { $id: 'EditQuotaRuleOptions', description: 'EditQuotaRuleOptions represents the options for editing a quota rule' },
);
export type EditQuotaRuleOptions = Static<typeof EditQuotaRuleOptionsSchema>;

export const CreateQuotaGroupOptionsSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Name of the quota group to create' })),
    rules: Type.Optional(
      Type.Array(CreateQuotaRuleOptionsSchema, { description: 'Rules to add to the newly created group.\nIf a rule does not exist, it will be created.' }),
    ),
  },
  { $id: 'CreateQuotaGroupOptions', description: 'CreateQutaGroupOptions represents the options for creating a quota group' },
);
export type CreateQuotaGroupOptions = Static<typeof CreateQuotaGroupOptionsSchema>;

export const SetUserQuotaGroupsOptionsSchema = Type.Object(
  { groups: Type.Array(Type.String(), { description: 'Quota groups the user shall have' }) },
  { $id: 'SetUserQuotaGroupsOptions', description: 'SetUserQuotaGroupsOptions represents the quota groups of a user' },
);
export type SetUserQuotaGroupsOptions = Static<typeof SetUserQuotaGroupsOptionsSchema>;

export const QuotaUsedAttachmentSchema = Type.Object(
  {
    api_url: Type.String({ description: 'API URL for the attachment' }),
    contained_in: Type.Object({
      api_url: Type.String({ description: 'API URL for the object that contains this attachment' }),
      html_url: Type.String({ description: 'HTML URL for the object that contains this attachment' }),
    }),
    name: Type.String({ description: 'Filename of the attachment' }),
    size: int64('Size of the attachment (in bytes)'),
  },
  { $id: 'QuotaUsedAttachment', description: "QuotaUsedAttachment represents an attachment counting towards a user's quota" },
);
export type ApiQuotaUsedAttachment = Static<typeof QuotaUsedAttachmentSchema>;

export const QuotaUsedPackageSchema = Type.Object(
  {
    html_url: Type.String({ description: 'HTML URL to the package version' }),
    name: Type.String({ description: 'Name of the package' }),
    size: int64('Size of the package version'),
    type: Type.String({ description: 'Type of the package' }),
    version: Type.String({ description: 'Version of the package' }),
  },
  { $id: 'QuotaUsedPackage', description: "QuotaUsedPackage represents a package counting towards a user's quota" },
);
export type ApiQuotaUsedPackage = Static<typeof QuotaUsedPackageSchema>;

export const QuotaUsedArtifactSchema = Type.Object(
  {
    html_url: Type.String({ description: 'HTML URL to the action run containing the artifact' }),
    name: Type.String({ description: 'Name of the artifact' }),
    size: int64('Size of the artifact (compressed)'),
  },
  { $id: 'QuotaUsedArtifact', description: "QuotaUsedArtifact represents an artifact counting towards a user's quota" },
);
export type ApiQuotaUsedArtifact = Static<typeof QuotaUsedArtifactSchema>;
