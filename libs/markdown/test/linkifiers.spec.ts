import { compileLinkifier, LinkifierError, renderMarkdown, topicLinks } from '../src/index';
import { expandTemplate, isValidTemplate } from '../src/uri-template';

const github = { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/zulip/zulip/issues/{id}' };

describe('linkifiers', () => {
  it('link matches after a boundary, not inside words, code or links', () => {
    expect(renderMarkdown('See #123, (#45) and x#9', { linkifiers: [github] })).toBe(
      '<p>See <a href="https://github.com/zulip/zulip/issues/123">#123</a>, (<a href="https://github.com/zulip/zulip/issues/45">#45</a>) and x#9</p>',
    );
    expect(renderMarkdown('`#123` [#7](https://example.com) #12a', { linkifiers: [github] })).toBe(
      '<p><code>#123</code> <a href="https://example.com">#7</a> #12a</p>',
    );
    expect(renderMarkdown('**#5**', { linkifiers: [github] })).toBe('<p><strong>#5</strong></p>');
  });

  it('apply in order: the first linkifier matching at a place wins', () => {
    const first = { pattern: 'ZUL-(?P<id>[0-9]+)', urlTemplate: 'https://one.example/{id}' };
    const second = { pattern: '(?P<p>[A-Z]+)-(?P<id>[0-9]+)', urlTemplate: 'https://two.example/{p}/{id}' };
    expect(renderMarkdown('ZUL-1 ABC-2', { linkifiers: [first, second] })).toBe(
      '<p><a href="https://one.example/1">ZUL-1</a> <a href="https://two.example/ABC/2">ABC-2</a></p>',
    );
  });

  it('expand RFC 6570 templates', () => {
    expect(expandTemplate('https://x.test/{a}{?b,c}{#f}', { a: 'one two', b: 'x/y', c: undefined, f: 'a/b' })).toBe(
      'https://x.test/one%20two?b=x%2Fy#a/b',
    );
    expect(expandTemplate('https://x{.d}{/p}{;q}', { d: 'net', p: 'p', q: '' })).toBe('https://x.net/p;q');
    for (const bad of ['https://example.com/{foo', 'https://example.com/{{}', 'https://example.com/{//foo}', '{bar++}'])
      expect(isValidTemplate(bad)).toBe(false);
    expect(isValidTemplate('https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}')).toBe(
      true,
    );
  });

  it("refuse what Zulip's validation refuses, with its texts", () => {
    const error = (pattern: string, urlTemplate: string) => {
      try {
        compileLinkifier({ pattern, urlTemplate });
        return null;
      } catch (err) {
        return err instanceof LinkifierError ? [err.field, err.message] : err;
      }
    };
    expect(error('', 'https://x/{id}')).toEqual(['pattern', 'This field cannot be blank.']);
    expect((error('(foo', 'https://x/') as string[])[1]).toMatch(/^Bad regular expression: /);
    expect(error('ZUL-(?P<id>\\d+)', '$fgfg')).toEqual([
      '__all__',
      "Group 'id' in linkifier pattern is not present in URL template.",
    ]);
    expect(error('ZUL-(?P<id>\\d+)', 'https://x/{hello}')).toEqual([
      '__all__',
      "Group 'hello' in URL template is not present in linkifier pattern.",
    ]);
    expect(error('#(?P<id>[123])', '{id')).toEqual(['url_template', 'Invalid URL template.']);
    expect(
      error('(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issue/{id}'),
    ).toBeNull();
  });

  it('make topic links of linkifier matches and bare URLs, in order, without overlaps', () => {
    expect(topicLinks([github], 'fix #12 see https://zulip.com/x and #3')).toEqual([
      { text: '#12', url: 'https://github.com/zulip/zulip/issues/12' },
      { text: 'https://zulip.com/x', url: 'https://zulip.com/x' },
      { text: '#3', url: 'https://github.com/zulip/zulip/issues/3' },
    ]);
    expect(topicLinks([], 'www.zulip.org')).toEqual([{ text: 'www.zulip.org', url: 'https://www.zulip.org' }]);
  });
});
