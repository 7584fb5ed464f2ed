/**
 * The actions folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { actionsDomain } from './domain.js';
export { toApiActionVariable, toApiSecret } from './convert.js';
export {
  ActionVariableSchema,
  CreateOrUpdateSecretOptionSchema,
  CreateVariableOptionSchema,
  SecretSchema,
  UpdateVariableOptionSchema,
  type ApiActionVariable,
  type ApiSecret,
  type CreateOrUpdateSecretOption,
  type CreateVariableOption,
  type UpdateVariableOption,
} from './schemas.js';
export { ActionsService, type ActionsOwner } from './service.js';
export { type ActionVariable, type ActionsTables } from './tables.js';
