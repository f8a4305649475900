import {
  channelNarrowHash,
  channelSlug,
  decodeHashComponent,
  directMessageUrl,
  encodeHashComponent,
  groupDmSlug,
  messageNarrowUrl,
  participantsSlug,
  topicNarrowHash,
  userSlug,
} from '@confab/zulip';

// Expected values are what Zulip's encode_hash_component (urllib.parse.quote(s, safe="*"), then % → ., ( → .28,
// ) → .29, . → .2E) writes for the same input.
describe('encodeHashComponent (Zulip zerver/lib/url_encoding.py)', () => {
  it.each([
    ['castle walls', 'castle.20walls'],
    ['v1.2 (beta)', 'v1.2E2.20.28beta.29'],
    ['naïve', 'na.C3.AFve'],
    ["what's up!", 'what.27s.20up.21'],
    ['a*b~c_d-e', 'a*b~c_d-e'],
    ['x/y?z#w&=+', 'x.2Fy.3Fz.23w.26.3D.2B'],
    ['100%', '100.25'],
    ['✔ done', '.E2.9C.94.20done'],
    ['🎉', '.F0.9F.8E.89'],
    ['', ''],
  ])('encodes %j as %j', (text, encoded) => {
    expect(encodeHashComponent(text)).toBe(encoded);
  });

  it('decodes what it encodes, and hand-written components as well as it can', () => {
    for (const text of ['a.b', '100%', 'x/y?z#w', "what's up!", 'emoji 🎉', '(x)', ''])
      expect(decodeHashComponent(encodeHashComponent(text))).toBe(text);
    expect(decodeHashComponent('castle%20walls')).toBe('castle walls');
    expect(decodeHashComponent('100%')).toBe('100%');
  });
});

describe('narrow slugs and links', () => {
  const verona = { id: 12, name: 'Verona' };

  it('writes a channel as its id and its name with spaces as dashes', () => {
    expect(channelSlug(12, 'Verona')).toBe('12-Verona');
    expect(channelSlug(3, 'castle  walls')).toBe('3-castle--walls');
    expect(channelSlug(3, 'v1.2 (beta)')).toBe('3-v1.2E2-.28beta.29');
    expect(channelSlug(3, 'a/b "c"')).toBe('3-a.2Fb-.22c.22');
  });

  it('writes a user as id and name, runs of unsafe characters as one dash', () => {
    expect(userSlug(9, 'King Hamlet')).toBe('9-King-Hamlet');
    expect(userSlug(9, 'a  "b"/<c>`d')).toBe('9-a-b-c-d');
    expect(userSlug(9, 'Zoë\u200bO\u0007k')).toBe('9-Zo.C3.AB-O-k');
  });

  it('writes group conversations by sorted ids', () => {
    expect(groupDmSlug([11, 10])).toBe('10,11-group');
    expect(participantsSlug([9])).toBe('9');
    expect(participantsSlug([9, 5])).toBe('5,9');
    expect(participantsSlug([12, 5, 9])).toBe('5,9,12-group');
  });

  it('links channels, topics and messages', () => {
    expect(channelNarrowHash(verona)).toBe('#narrow/channel/12-Verona');
    expect(topicNarrowHash(verona, 'castle walls')).toBe('#narrow/channel/12-Verona/topic/castle.20walls');
    expect(topicNarrowHash(verona, '')).toBe('#narrow/channel/12-Verona/topic/');
    expect(messageNarrowUrl('https://chat.example.com/', verona, 'a.b', 42)).toBe(
      'https://chat.example.com/#narrow/channel/12-Verona/topic/a.2Eb/near/42',
    );
    expect(messageNarrowUrl('https://chat.example.com', verona, 'x', 42, 'with')).toBe(
      'https://chat.example.com/#narrow/channel/12-Verona/topic/x/with/42',
    );
    expect(directMessageUrl('https://chat.example.com', [9, 5], 7)).toBe(
      'https://chat.example.com/#narrow/dm/5,9/near/7',
    );
    expect(directMessageUrl('https://chat.example.com', [9, 5, 12], 7)).toBe(
      'https://chat.example.com/#narrow/dm/5,9,12-group/near/7',
    );
  });
});
