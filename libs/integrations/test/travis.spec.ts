import { travis } from '../src/integrations/travis.js';
import { runWebhook } from '../src/index.js';
import { answered, only, posted } from './ops-support.js';
import { formRequest } from './support.js';

const build = (overrides: Record<string, unknown> = {}) => ({
  type: 'push',
  author_name: 'ada',
  status_message: 'Passed',
  compare_url: 'https://git.example/compare/a...b',
  build_url: 'https://travis.example/builds/1',
  repository: { name: 'site' },
  ...overrides,
});
const run = (payload: unknown, query: Record<string, string> = {}) =>
  runWebhook(travis, formRequest({ payload: JSON.stringify(payload) }, { query }));

describe('travis', () => {
  it('posts the build in the topic "builds" with an emoji for its status', () => {
    expect(only(run(build()))).toEqual({
      topic: 'builds',
      content:
        'Author: ada\nBuild status: Passed :thumbs_up:\n' +
        'Details: [changes](https://git.example/compare/a...b), [build log](https://travis.example/builds/1)',
    });
    expect(only(run(build({ status_message: 'Still Failing' }))).content).toContain('Still Failing :thumbs_down:');
    expect(only(run(build({ status_message: 'Queued' }))).content).toContain(
      "Queued (No emoji specified for status 'Queued'.)",
    );
  });

  it('filters by the build type', () => {
    expect(posted(run(build({ type: 'pull_request' }), { only_events: '["push"]' }))).toEqual([]);
    expect(posted(run(build({ type: 'pull_request' }), { only_events: '["pull_request"]' }))).toHaveLength(1);
  });

  it("answers Zulip's errors for a missing or broken payload field", () => {
    expect(answered(runWebhook(travis, formRequest({})))).toMatchObject({
      status: 400,
      msg: "Missing 'payload' argument",
    });
    expect(answered(runWebhook(travis, formRequest({ payload: '{' })))).toMatchObject({
      status: 400,
      msg: 'payload is not valid JSON',
    });
  });
});
