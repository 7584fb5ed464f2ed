/**
 * Stores, for this repository's white-box tests only (`@repohost/core/internal`, a source alias): tests that set up a
 * state no operation produces, or watch a write fail, reach the tables here. Not part of the published API, where a
 * domain's stores are private behind its services and ports.
 */
export { AttachmentsStore } from './attachments/store.js';
export { LabelsStore } from './labels/store.js';
export { LoginSourcesStore } from './loginsources/store.js';
export { MigrationsStore } from './migrate/store.js';
export { MirrorsStore } from './mirrors/store.js';
export { PushMirrorsStore } from './pushmirrors/store.js';
export { GitIntentStore } from './repos/intents.js';
export { ReposStore } from './repos/store.js';
export { WatchesStore } from './repos/watches.js';
export { SecurityStore } from './security/store.js';
export { TwoFactorStore } from './twofactor/store.js';
export { UserAdminStore } from './users/admin-store.js';
export { UsersStore } from './users/store.js';
