/**
 * The webhooks folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { webhooksDomain } from './domain.js';
export { WebhooksService } from './service.js';
export { type HookEventName, type HookPayload } from './formats/types.js';
export { type PullHookAction } from './pull-payloads.js';
export { type WebhooksTables } from './tables.js';
