import { ApiClient, serviceToken, type ApiResponse, type DevUserName, type World } from '@confab/devkit';
import { startExtraProcess, system } from './system';

type JsonObject = ApiResponse['body'];

/**
 * Another settings process configured differently (a mail server, a meeting provider, a groups service), with a
 * gateway of its own in front: same databases, Redis and broker as the rest of the system.
 */
export class SettingsVariant {
  private constructor(
    readonly gatewayUrl: string,
    readonly settingsUrl: string,
    private readonly stops: (() => Promise<void>)[],
  ) {}

  static async start(env: Record<string, string>): Promise<SettingsVariant> {
    const settings = await startExtraProcess('settings', env);
    const gateway = await startExtraProcess('gateway', { SETTINGS_URL: settings.url }).catch(async (err: unknown) => {
      await settings.process.stop();
      throw err;
    });
    return new SettingsVariant(gateway.url, settings.url, [
      () => gateway.process.stop(),
      () => settings.process.stop(),
    ]);
  }

  as(world: World, name: DevUserName): ApiClient {
    const user = world.user(name);
    return new ApiClient(this.gatewayUrl, { host: world.host, forwardedFor: world.clientAddress }).withCredentials(
      user.email,
      user.apiKey,
    );
  }

  /** This settings process's part of POST /register for the user. */
  async initialState(userId: number): Promise<JsonObject> {
    const response = await fetch(`${this.settingsUrl}/internal/users/${userId}/initial-state`, {
      headers: { 'x-confab-identity': serviceToken(system()) },
    });
    if (response.status !== 200) throw new Error(`initial state of user ${userId}: ${response.status}`);
    return (await response.json()) as JsonObject;
  }

  async stop(): Promise<void> {
    for (const stop of this.stops) await stop();
  }
}
