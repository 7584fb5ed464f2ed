/**
 * Every migration, in the order it runs. Append only: this list is the one place that knows the order, and a
 * released migration is never edited or removed (add a new one instead).
 */
import type { Migration } from './kit.js';
import { m0001_users_create } from './0001_users_create.js';
import { m0002_tokens_create } from './0002_tokens_create.js';
import { m0003_repos_create } from './0003_repos_create.js';
import { m0004_repos_git_intents } from './0004_repos_git_intents.js';
import { m0005_security_sign_in_failures } from './0005_security_sign_in_failures.js';
import { m0006_repos_settings } from './0006_repos_settings.js';
import { m0007_topics_create } from './0007_topics_create.js';
import { m0008_keys_public_keys } from './0008_keys_public_keys.js';
import { m0009_labels_create } from './0009_labels_create.js';
import { m0010_repos_pushes } from './0010_repos_pushes.js';

export const MIGRATIONS: readonly Migration[] = [
  m0001_users_create,
  m0002_tokens_create,
  m0003_repos_create,
  m0004_repos_git_intents,
  m0005_security_sign_in_failures,
  m0006_repos_settings,
  m0007_topics_create,
  m0008_keys_public_keys,
  m0009_labels_create,
  m0010_repos_pushes,
];
