export { NodeInfoSchema, NodeInfoServicesSchema, NodeInfoSoftwareSchema, NodeInfoUsageSchema, NodeInfoUsageUsersSchema, type NodeInfo, type NodeInfoUsage } from './schemas.js';
export { NodeInfoService } from './service.js';
