import { Type, type Static } from '@sinclair/typebox';

const count = (description: string) => Type.Optional(Type.Integer({ format: 'int64', description }));

export const NodeInfoUsageUsersSchema = Type.Object(
  {
    total: count('every individual account'),
    activeHalfyear: count('accounts signed in within six months'),
    activeMonth: count('accounts signed in within a month'),
  },
  { $id: 'NodeInfoUsageUsers', description: 'NodeInfoUsageUsers contains statistics about the users of this server' },
);

export const NodeInfoUsageSchema = Type.Object(
  {
    users: NodeInfoUsageUsersSchema,
    localPosts: count('issues and pull requests'),
    localComments: count('comments'),
  },
  { $id: 'NodeInfoUsage', description: 'NodeInfoUsage contains usage statistics for this server' },
);

export const NodeInfoSoftwareSchema = Type.Object(
  { name: Type.String(), version: Type.String(), repository: Type.String(), homepage: Type.String() },
  { $id: 'NodeInfoSoftware', description: 'NodeInfoSoftware contains Metadata about server software in use' },
);

export const NodeInfoServicesSchema = Type.Object(
  { inbound: Type.Array(Type.String()), outbound: Type.Array(Type.String()) },
  { $id: 'NodeInfoServices', description: 'NodeInfoServices contains the third party sites this server can connect to via their application API' },
);

export const NodeInfoSchema = Type.Object(
  {
    version: Type.String(),
    software: NodeInfoSoftwareSchema,
    protocols: Type.Array(Type.String()),
    services: NodeInfoServicesSchema,
    openRegistrations: Type.Boolean(),
    usage: NodeInfoUsageSchema,
    metadata: Type.Object({}),
  },
  { $id: 'NodeInfo', description: 'NodeInfo contains standardized way of exposing metadata about a server running one of the distributed social networks' },
);
export type NodeInfo = Static<typeof NodeInfoSchema>;
export type NodeInfoUsage = Static<typeof NodeInfoUsageSchema>;
