import { Type, type Static } from '@sinclair/typebox';

/**
 * The settings of an LDAP login source, as `repohost admin auth add-ldap`/`update-ldap` (and the simple-auth
 * variants) take them: every field optional, what is absent stays as it is (or its default on creation).
 * RepoHost has no API for login sources (Forgejo has none either); embedders and the CLI call the service.
 */
export const LdapSourceOptionSchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  /** Sign-ins through an inactive source are refused. Default true. */
  active: Type.Optional(Type.Boolean()),
  /** The `sync_external_users` cron task synchronizes this source's accounts with the directory. */
  synchronize_users: Type.Optional(Type.Boolean()),
  /** `Unencrypted`, `LDAPS` or `StartTLS`, any case. */
  security_protocol: Type.Optional(Type.String()),
  skip_tls_verify: Type.Optional(Type.Boolean()),
  host: Type.Optional(Type.String({ maxLength: 255 })),
  port: Type.Optional(Type.Integer()),
  user_search_base: Type.Optional(Type.String()),
  user_filter: Type.Optional(Type.String()),
  admin_filter: Type.Optional(Type.String()),
  restricted_filter: Type.Optional(Type.String()),
  allow_deactivate_all: Type.Optional(Type.Boolean()),
  username_attribute: Type.Optional(Type.String()),
  firstname_attribute: Type.Optional(Type.String()),
  surname_attribute: Type.Optional(Type.String()),
  email_attribute: Type.Optional(Type.String()),
  public_ssh_key_attribute: Type.Optional(Type.String()),
  avatar_attribute: Type.Optional(Type.String()),
  skip_local_2fa: Type.Optional(Type.Boolean()),
  /** Bind DN sources only. */
  bind_dn: Type.Optional(Type.String()),
  bind_password: Type.Optional(Type.String()),
  attributes_in_bind: Type.Optional(Type.Boolean()),
  page_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
  /** Simple auth only: the user's DN, `%s` standing for the login name. */
  user_dn: Type.Optional(Type.String()),
});
export type LdapSourceOption = Static<typeof LdapSourceOptionSchema>;
