import { allRoutes } from './support/routes';
import { system } from './support/system';

describe('API documentation served by the gateway', () => {
  it('describes every operation the services serve, with Zulip descriptions where they exist', async () => {
    const response = await fetch(`${system().gatewayUrl}/api/openapi.json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: Record<string, Record<string, any>> };
    expect(doc.openapi).toBe('3.0.1');
    for (const route of await allRoutes()) {
      const path = route.path.replace('/api/v1', '').replace(/\{([a-z_]+):[a-z]+\}/g, '{$1}');
      expect({
        route: `${route.method} ${path}`,
        described: Boolean(doc.paths[path]?.[route.method.toLowerCase()]),
      }).toEqual({
        route: `${route.method} ${path}`,
        described: true,
      });
    }
    const me = doc.paths['/users/me']!.get;
    expect(me.summary).toBe('Get own user');
    expect(me.security).toEqual([{ basicAuth: [] }]);
    expect(me.responses['200']).toBeDefined();
    const login = doc.paths['/fetch_api_key']!.post;
    expect(login.security).toEqual([]);
    expect(Object.keys(login.requestBody.content['application/x-www-form-urlencoded'].schema.properties)).toEqual([
      'username',
      'password',
    ]);
  });

  it('offers a browsable page', async () => {
    const response = await fetch(`${system().gatewayUrl}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain('<h1>Confab API</h1>');
    expect(html).toContain('<code>/users/me</code>');
    expect(html).not.toMatch(/<script/i);
  });
});
