import type { Insertable } from 'kysely';
import { Store } from '../storage/index.js';
import type {
  OAuth2AuthorizationCode,
  OAuth2AuthorizationCodeTable,
  OAuth2Grant,
  OAuth2GrantTable,
  OAuth2ProviderTables,
  OAuth2Token,
  OAuth2TokenTable,
} from './provider-tables.js';

/** An access token as the API sees it: whose, with what scope, until when. */
export interface AccessTokenLookup {
  uid: number;
  scope: string;
  kind: string;
  expires_unix: number;
}

/** The provider's codes, grants, tokens and web sessions. */
export class OAuth2ProviderStore extends Store<OAuth2ProviderTables> {
  /**
   * Compiled once: every API request with an OAuth2 token runs it. The joins make a token die with its grant and
   * with its application, without a cleanup step.
   */
  private readonly tokenByHashQuery = this.precompiled<AccessTokenLookup, 'hash'>('tokenByHash', (db, param) =>
    db
      .selectFrom('oauth2_token as t')
      .innerJoin('oauth2_grant as g', 'g.id', 't.grant_id')
      .innerJoin('oauth2_application as a', 'a.id', 'g.application_id')
      .select(['t.uid', 't.scope', 't.kind', 't.expires_unix'])
      .where('t.token_hash', '=', param('hash')),
  );

  private readonly sessionByHashQuery = this.precompiled<{ uid: number; expires_unix: number }, 'hash'>('sessionByHash', (db, param) =>
    db.selectFrom('web_session').select(['uid', 'expires_unix']).where('session_hash', '=', param('hash')),
  );

  async accessTokenByHash(hash: string): Promise<AccessTokenLookup | undefined> {
    return (await this.tokenByHashQuery({ hash }))[0];
  }

  async insertCode(row: Insertable<OAuth2AuthorizationCodeTable>): Promise<void> {
    await this.db.insertInto('oauth2_authorization_code').values(row).execute();
  }

  codeByHash(hash: string): Promise<OAuth2AuthorizationCode | undefined> {
    return this.db.selectFrom('oauth2_authorization_code').selectAll().where('code_hash', '=', hash).executeTakeFirst();
  }

  /** Marks a code used; false when it already was (of two concurrent exchanges, one wins). */
  async claimCode(id: number): Promise<boolean> {
    const result = await this.db.updateTable('oauth2_authorization_code').set({ used: 1 }).where('id', '=', id).where('used', '=', 0).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setCodeGrant(id: number, grantId: number): Promise<void> {
    await this.db.updateTable('oauth2_authorization_code').set({ grant_id: grantId }).where('id', '=', id).execute();
  }

  /** Codes past their lifetime are worth nothing, not even for replay detection (their grant's tokens expire too). */
  async deleteExpiredCodes(now: number): Promise<number> {
    const result = await this.db.deleteFrom('oauth2_authorization_code').where('expires_unix', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  insertGrant(row: Insertable<OAuth2GrantTable>): Promise<OAuth2Grant> {
    return this.db.insertInto('oauth2_grant').values(row).returningAll().executeTakeFirstOrThrow();
  }

  grantById(id: number): Promise<OAuth2Grant | undefined> {
    return this.db.selectFrom('oauth2_grant').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Revokes a grant: its tokens stop working at once. */
  async deleteGrant(id: number): Promise<void> {
    await this.db.deleteFrom('oauth2_token').where('grant_id', '=', id).execute();
    await this.db.deleteFrom('oauth2_grant').where('id', '=', id).execute();
  }

  async insertTokens(rows: Insertable<OAuth2TokenTable>[]): Promise<void> {
    await this.db.insertInto('oauth2_token').values(rows).execute();
  }

  tokenByHash(hash: string): Promise<OAuth2Token | undefined> {
    return this.db.selectFrom('oauth2_token').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** Marks a refresh token used; false when it already was. */
  async consumeToken(id: number): Promise<boolean> {
    const result = await this.db.updateTable('oauth2_token').set({ consumed: 1 }).where('id', '=', id).where('consumed', '=', 0).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A grant's tokens past their lifetime: deleted when the grant issues new ones, so a family stays small. */
  async deleteExpiredTokensOf(grantId: number, now: number): Promise<void> {
    await this.db.deleteFrom('oauth2_token').where('grant_id', '=', grantId).where('expires_unix', '<', now).execute();
  }

  async insertSession(hash: string, uid: number, expires: number, now: number): Promise<void> {
    await this.db.insertInto('web_session').values({ session_hash: hash, uid, expires_unix: expires, created_unix: now }).execute();
  }

  async sessionByHash(hash: string): Promise<{ uid: number; expires_unix: number } | undefined> {
    return (await this.sessionByHashQuery({ hash }))[0];
  }

  async deleteExpiredSessions(now: number): Promise<number> {
    const result = await this.db.deleteFrom('web_session').where('expires_unix', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Every grant's tokens past their lifetime (a grant that never refreshes again keeps its old ones otherwise). */
  async deleteExpiredTokens(now: number): Promise<number> {
    const result = await this.db.deleteFrom('oauth2_token').where('expires_unix', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Everything of an account: its grants, their tokens, its codes and sessions. */
  async deleteAllOf(uid: number): Promise<void> {
    await this.db.deleteFrom('oauth2_token').where('uid', '=', uid).execute();
    await this.db.deleteFrom('oauth2_grant').where('uid', '=', uid).execute();
    await this.db.deleteFrom('oauth2_authorization_code').where('uid', '=', uid).execute();
    await this.db.deleteFrom('web_session').where('uid', '=', uid).execute();
  }
}
