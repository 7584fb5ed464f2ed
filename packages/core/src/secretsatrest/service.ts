/**
 * Moving every secret stored in the database from one `[security] SECRET_KEY` to the current one
 * (`repohost admin regenerate secrets`): each domain re-encrypts its own values (the `secrets` of its record); this
 * only runs them in one transaction, so an installation is never left with its secrets split between two keys.
 */
import type { CoreContext } from '../context.js';
import type { StoredSecretKind } from '../domain.js';
import { ValidationError } from '../errors.js';
import type { RekeyCounts, SecretRekey } from '../security/index.js';

/** What one kind of secret came to: `moved` to the current key, already `current`, `failed` under both keys. */
export interface SecretKindReport extends RekeyCounts {
  kind: string;
}

export interface ReencryptReport {
  kinds: SecretKindReport[];
  /** Nothing was written (`dryRun`). */
  dryRun: boolean;
}

export interface ReencryptOptions {
  /** The key the values are encrypted under now; older installations used the empty one. */
  oldKey: string;
  /** Count only: the transaction is rolled back. */
  dryRun?: boolean;
}

/** Thrown to roll a dry run back; never leaves `reencrypt`. */
class DryRun extends Error {}

export class SecretsAtRestService {
  private kinds: readonly StoredSecretKind[] = [];

  constructor(private readonly ctx: CoreContext) {}

  /** The kinds the domains' records declare (`secrets`), in the order the report lists them. */
  register(kinds: readonly StoredSecretKind[]): void {
    this.kinds = kinds;
  }

  /**
   * Re-encrypts every stored secret (each kind a domain's record declares: TOTP secrets, LDAP bind passwords, webhook
   * `Authorization` headers, mirror and migration credentials, …) from `oldKey` to the host's current SECRET_KEY, in one
   * transaction. Values under neither key are left as they are and named in the report. A server running with
   * the old key must be stopped first: it would go on writing under that key.
   */
  async reencrypt(options: ReencryptOptions): Promise<ReencryptReport> {
    const rekey: SecretRekey = { oldKey: options.oldKey, newKey: this.ctx.settings.security.SECRET_KEY };
    if (rekey.newKey === '') throw new ValidationError('SECRET_KEY', 'is empty: configure a key to re-encrypt to');
    if (rekey.oldKey === rekey.newKey) throw new ValidationError('old_key', 'is the current SECRET_KEY: there is nothing to re-encrypt');
    const kinds: SecretKindReport[] = [];
    try {
      await this.ctx.transaction(async (tx) => {
        for (const { kind, reencrypt } of this.kinds) kinds.push({ kind, ...(await reencrypt(this.ctx, tx, rekey)) });
        if (options.dryRun) throw new DryRun();
      });
    } catch (error) {
      if (!(error instanceof DryRun)) throw error;
    }
    return { kinds, dryRun: options.dryRun === true };
  }
}
