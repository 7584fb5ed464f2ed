/** Every hook type's formatter, by the type's name (`CreateHookOption.type`). */
import { DINGTALK_FORMATTER } from './dingtalk.js';
import { DISCORD_FORMATTER } from './discord.js';
import { FEISHU_FORMATTER } from './feishu.js';
import { MATRIX_FORMATTER } from './matrix.js';
import { MSTEAMS_FORMATTER } from './msteams.js';
import { PACKAGIST_FORMATTER } from './packagist.js';
import { PLAIN_FORMATTER } from './plain.js';
import { SLACK_FORMATTER } from './slack.js';
import { SOURCEHUT_BUILDS_FORMATTER } from './sourcehut.js';
import { TELEGRAM_FORMATTER } from './telegram.js';
import type { HookFormatter } from './types.js';
import { WECHATWORK_FORMATTER } from './wechatwork.js';

export const HOOK_FORMATTERS: ReadonlyMap<string, HookFormatter> = new Map<string, HookFormatter>([
  ['forgejo', PLAIN_FORMATTER],
  ['gitea', PLAIN_FORMATTER],
  ['gogs', PLAIN_FORMATTER],
  ['slack', SLACK_FORMATTER],
  ['discord', DISCORD_FORMATTER],
  ['dingtalk', DINGTALK_FORMATTER],
  ['telegram', TELEGRAM_FORMATTER],
  ['msteams', MSTEAMS_FORMATTER],
  ['feishu', FEISHU_FORMATTER],
  ['matrix', MATRIX_FORMATTER],
  ['wechatwork', WECHATWORK_FORMATTER],
  ['packagist', PACKAGIST_FORMATTER],
  ['sourcehut_builds', SOURCEHUT_BUILDS_FORMATTER],
]);

export { isValidSlackChannel } from './slack.js';
export { matrixPlainBody } from './matrix.js';
export { adjustManifest } from './sourcehut.js';
export type { FormattedHook, HookEventName, HookFormatter, HookPayload, HookRequestContent } from './types.js';
