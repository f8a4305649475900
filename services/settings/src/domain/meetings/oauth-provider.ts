import { createHash, randomBytes } from 'node:crypto';
import { contracts, outboxRecord } from '@confab/events';
import { ConfabError, invalid } from '@confab/errors';
import type { Logger } from '@confab/logging';
import { OAuthRefusedError, type MeetingApi, type TokenSet } from '../ports.js';
import type { Database } from '../store.js';
import type { User } from '../types.js';
import type { MeetingProvider } from './provider.js';
import type { TokenSealer } from './token-sealer.js';

export interface OAuthProviderSettings {
  name: string;
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  createUrl: string;
  scope: string;
  /** Where the provider sends the browser back: <external URL>/calls/meetingprovider/complete. */
  redirectUri: string;
}

/** How long an authorization may take between POST /calls/meetingprovider/register and the redirect back. */
const STATE_LIFETIME_MS = 10 * 60_000;
/** Tokens this close to expiry are refreshed before use, so a slow provider call does not outlive them. */
const REFRESH_MARGIN_MS = 60_000;

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/**
 * A provider with per-user OAuth (authorization-code flow), like Zulip's Zoom and Webex integrations: the user
 * authorizes once, the token is stored sealed, refreshed when it expires and dropped when the provider refuses it.
 */
export class OAuthMeetingProvider implements MeetingProvider {
  readonly kind = 'oauth';
  readonly name: string;
  /** Tokens are bound to the provider they came from: switching providers asks users to authorize again. */
  private readonly providerKey: string;

  constructor(
    private readonly settings: OAuthProviderSettings,
    private readonly api: MeetingApi,
    private readonly db: Database,
    private readonly sealer: TokenSealer,
    private readonly logger: Logger,
  ) {
    this.name = settings.name;
    this.providerKey = settings.tokenUrl ? `oauth:${new URL(settings.tokenUrl).host}` : 'oauth';
  }

  private get configured(): boolean {
    const s = this.settings;
    return Boolean(s.clientId && s.clientSecret && s.authorizeUrl && s.tokenUrl && s.createUrl);
  }

  private checkConfigured(): void {
    if (!this.configured) throw invalid(`${this.name} credentials have not been configured`);
  }

  private invalidToken(): ConfabError {
    return invalid(`Invalid ${this.name} access token`, 'INVALID_VIDEO_CALL_PROVIDER_TOKEN');
  }

  private context(userId: number): string {
    return `${userId}:${this.providerKey}`;
  }

  private async loadToken(userId: number): Promise<TokenSet | null> {
    const sealed = await this.db.store.meetingTokens.get(userId, this.providerKey);
    return sealed === null ? null : this.sealer.open(sealed, this.context(userId));
  }

  async hasToken(user: User): Promise<boolean> {
    return this.configured && (await this.loadToken(user.id)) !== null;
  }

  /** Stores the token; `announce` publishes has_meetingprovider_token = true (a refresh changes nothing visible). */
  private async saveToken(
    user: Pick<User, 'id' | 'realmId'>,
    token: TokenSet,
    announce: boolean,
    requestId: string | null,
  ): Promise<void> {
    await this.db.write(async (store) => {
      await store.meetingTokens.put(user.id, this.providerKey, this.sealer.seal(token, this.context(user.id)));
      return { result: undefined, events: announce ? [this.tokenEvent(user, true, requestId)] : [] };
    });
  }

  private async dropToken(user: User, requestId: string | null): Promise<void> {
    await this.db.write(async (store) => {
      const removed = await store.meetingTokens.remove(user.id);
      return { result: undefined, events: removed ? [this.tokenEvent(user, false, requestId)] : [] };
    });
  }

  private tokenEvent(user: Pick<User, 'id' | 'realmId'>, hasToken: boolean, requestId: string | null) {
    return outboxRecord(
      contracts.meetingProviderTokenChanged,
      { user_id: user.id, realm_id: user.realmId, has_token: hasToken },
      { realmId: user.realmId, requestId },
    );
  }

  /** The provider's authorization page for this user; `state` ties the redirect back to them, once. */
  async authorizationUrl(user: User): Promise<string> {
    this.checkConfigured();
    const state = randomBytes(24).toString('base64url');
    const expiresAt = new Date(Date.now() + STATE_LIFETIME_MS);
    await this.db.write(async (store) => ({
      result: await store.meetingTokens.addState(hashState(state), user.id, expiresAt),
      events: [],
    }));
    const url = new URL(this.settings.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('redirect_uri', this.settings.redirectUri);
    url.searchParams.set('state', state);
    if (this.settings.scope) url.searchParams.set('scope', this.settings.scope);
    return url.toString();
  }

  /** The redirect back from the provider: exchanges the code and stores the token for the user the state names. */
  async completeAuthorization(code: string, state: string, requestId: string): Promise<void> {
    this.checkConfigured();
    const userId = await this.db.store.meetingTokens.takeState(hashState(state), new Date());
    const user = userId === null ? null : await this.db.store.users.byId(userId);
    if (!user) throw invalid(`Invalid ${this.name} session identifier`);
    let token: TokenSet;
    try {
      token = await this.api.exchangeCode(code, this.settings.redirectUri);
    } catch (err) {
      if (!(err instanceof OAuthRefusedError)) this.logger.warn({ err }, 'meeting provider token exchange failed');
      throw invalid(`Invalid ${this.name} credentials`);
    }
    await this.saveToken(user, token, true, requestId);
  }

  async createMeeting(user: User, requestId: string | null = null): Promise<string> {
    this.checkConfigured();
    let token = await this.loadToken(user.id);
    if (!token) throw this.invalidToken();
    if (token.expiresAt !== null && token.expiresAt - Date.now() < REFRESH_MARGIN_MS) {
      token = await this.refresh(user, token, requestId);
    }
    let result;
    try {
      result = await this.api.createMeeting(token.accessToken);
    } catch (err) {
      this.logger.warn({ err }, 'meeting provider did not answer');
      throw invalid(`Failed to create ${this.name} call`);
    }
    if (result.kind === 'unauthorized') {
      await this.dropToken(user, requestId);
      throw this.invalidToken();
    }
    if (result.kind === 'failed') throw invalid(`Failed to create ${this.name} call`);
    return result.url;
  }

  private async refresh(user: User, token: TokenSet, requestId: string | null): Promise<TokenSet> {
    if (!token.refreshToken) {
      await this.dropToken(user, requestId);
      throw this.invalidToken();
    }
    let fresh: TokenSet;
    try {
      fresh = await this.api.refresh(token.refreshToken);
    } catch (err) {
      if (err instanceof OAuthRefusedError) {
        await this.dropToken(user, requestId);
        throw this.invalidToken();
      }
      this.logger.warn({ err }, 'meeting provider token refresh failed');
      throw invalid(`Failed to create ${this.name} call`);
    }
    // Providers that do not rotate refresh tokens leave it out of the answer.
    const merged = { ...fresh, refreshToken: fresh.refreshToken ?? token.refreshToken };
    await this.saveToken(user, merged, false, requestId);
    return merged;
  }
}
