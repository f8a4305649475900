import type { MeetingConfig } from '../config.js';
import { OAuthRefusedError, type CreateMeetingResult, type MeetingApi, type TokenSet } from '../domain/ports.js';

interface TokenAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
}

/** An OAuth 2.0 provider's token endpoint (client_secret_post) and a JSON "create meeting" endpoint. */
export class HttpMeetingApi implements MeetingApi {
  constructor(private readonly config: MeetingConfig['oauth']) {}

  private async token(fields: Record<string, string>): Promise<TokenSet> {
    const response = await fetch(this.config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        ...fields,
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
      }).toString(),
      signal: AbortSignal.timeout(this.config.timeoutMs),
    });
    const body = (await response.json().catch(() => ({}))) as TokenAnswer;
    // RFC 6749 §5.2: a refused grant or client is a 400 or 401 (invalid_grant, invalid_client...).
    if (response.status === 400 || response.status === 401)
      throw new OAuthRefusedError(`token endpoint answered ${response.status}`);
    if (!response.ok || typeof body.access_token !== 'string')
      throw new Error(`token endpoint answered ${response.status}`);
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in);
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : null,
    };
  }

  exchangeCode(code: string, redirectUri: string): Promise<TokenSet> {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  refresh(refreshToken: string): Promise<TokenSet> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  async createMeeting(accessToken: string): Promise<CreateMeetingResult> {
    const response = await fetch(this.config.createUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: '{}',
      signal: AbortSignal.timeout(this.config.timeoutMs),
    });
    if (response.status === 401) return { kind: 'unauthorized' };
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    const url = body[this.config.joinUrlField];
    return response.ok && typeof url === 'string' ? { kind: 'created', url } : { kind: 'failed' };
  }
}
