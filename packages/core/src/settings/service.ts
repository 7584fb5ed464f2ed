import type { Settings } from '../config/index.js';
import type { CoreContext } from '../context.js';
import type {
  GeneralAPISettings,
  GeneralAttachmentSettings,
  GeneralRepoSettings,
  GeneralUISettings,
  ServerVersion,
} from './schemas.js';

/** The server settings anyone may read (`/version`, `/settings/*`). */
export class PublicSettingsService {
  private readonly settings: Settings;

  constructor(ctx: CoreContext) {
    this.settings = ctx.settings;
  }

  version(): ServerVersion {
    return { version: this.settings.repohost.REPORTED_VERSION };
  }

  api(): GeneralAPISettings {
    const api = this.settings.api;
    return {
      max_response_items: api.MAX_RESPONSE_ITEMS,
      default_paging_num: api.DEFAULT_PAGING_NUM,
      default_git_trees_per_page: api.DEFAULT_GIT_TREES_PER_PAGE,
      default_max_blob_size: api.DEFAULT_MAX_BLOB_SIZE,
    };
  }

  repository(): GeneralRepoSettings {
    const s = this.settings;
    return {
      mirrors_disabled: !s.mirror.ENABLED,
      http_git_disabled: s.repository.DISABLE_HTTP_GIT,
      migrations_disabled: s.repository.DISABLE_MIGRATIONS,
      stars_disabled: s.repository.DISABLE_STARS,
      forks_disabled: s.repository.DISABLE_FORKS,
      time_tracking_disabled: !s.service.ENABLE_TIMETRACKING,
      lfs_disabled: !s.server.LFS_START_SERVER,
    };
  }

  ui(): GeneralUISettings {
    const ui = this.settings.ui;
    return { default_theme: ui.DEFAULT_THEME, allowed_reactions: [...ui.REACTIONS], custom_emojis: [...ui.CUSTOM_EMOJIS] };
  }

  attachment(): GeneralAttachmentSettings {
    const a = this.settings.attachment;
    return { enabled: a.ENABLED, allowed_types: a.ALLOWED_TYPES, max_size: a.MAX_SIZE, max_files: a.MAX_FILES };
  }
}
