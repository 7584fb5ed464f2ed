/**
 * The config folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { createSecretKeyFile, generateSecretKey } from './secret-key.js';
export { ConfigError, loadSettings, secretKeyFile, type LoadSettingsOptions, type Settings, type SettingsOverrides } from './settings.js';
