import { renderMessage } from '../src/index.js';
import cases from './fixtures/markdown_test_cases.json';
import known from './fixtures/unsupported_cases.json';

// Zulip's own Markdown test cases: each must render exactly as Zulip's server does, or exactly as
// Zulip's web client does when listed under `matchesWebClient`, or be listed as unsupported with a
// reason; listed cases must still differ, so the lists shrink as support grows and cannot hide regressions.

interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  marked_expected_output?: string;
  translate_emoticons?: boolean;
}

const REALM_URL = 'http://zulip.testserver';
const webClient: Record<string, string> = known.matchesWebClient;
const unsupported: Record<string, string> = known.unsupported;
const regular: RegularCase[] = cases.regular_tests;

function render(input: string, translateEmoticons = false): string {
  return renderMessage(input, { realmUrl: REALM_URL, translateEmoticons }).html;
}

describe("Zulip's Markdown test cases", () => {
  describe.each(regular.map((c) => [c.name, c] as const))('%s', (name, testCase) => {
    const html = render(testCase.input, testCase.translate_emoticons === true);
    if (name in webClient) {
      it("matches the web client's rendering", () => {
        expect(html).toBe(testCase.marked_expected_output);
        expect(html).not.toBe(testCase.expected_output);
      });
    } else if (name in unsupported) {
      it(`is listed as unsupported: ${unsupported[name]}`, () => {
        expect(html).not.toBe(testCase.expected_output);
      });
    } else {
      it("matches Zulip's rendering", () => {
        expect(html).toBe(testCase.expected_output);
      });
    }
  });

  it('lists only cases that exist, each with a reason', () => {
    const names = new Set(regular.map((c) => c.name));
    for (const [name, reason] of Object.entries({ ...webClient, ...unsupported })) {
      expect(names.has(name)).toBe(true);
      expect(reason.length).toBeGreaterThan(10);
    }
  });

  it('matches at least 95% of all cases (regular and linkify) exactly', () => {
    const exact = regular.filter((c) => !(c.name in webClient) && !(c.name in unsupported)).length;
    const linkify = (cases.linkify_tests as unknown[]).length;
    expect(exact).toBeGreaterThanOrEqual(167);
    expect((exact + linkify) / (regular.length + linkify)).toBeGreaterThanOrEqual(0.95);
  });

  describe('linkify cases', () => {
    // Each case is [input, expected with %s for the link, url]; an empty url means no link.
    const linkify = cases.linkify_tests as [string, string, string][];
    it.each(linkify)('%j', (input, template, url) => {
      let expected = template;
      if (url !== '') {
        const href = url.startsWith('http') ? url : url.includes('@') ? `mailto:${url}` : `http://${url}`;
        expected = template.replace('%s', `<a href="${href}">${url}</a>`);
      }
      expect(render(input)).toBe(expected);
    });
  });
});
