/**
 * The labels folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './issues.js';
export { toApiLabel, toApiLabelAt } from './convert.js';
export { labelsDomain } from './domain.js';
export { LabelsPort } from './port.js';
export { LabelSchema, type ApiLabel } from './schemas.js';
export { exclusiveScope } from './scope.js';
export { LabelsService } from './service.js';
export { type Label } from './tables.js';
