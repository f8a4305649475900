import { extractChannelIndicator, extractDirectRecipients } from '../src/domain/addressee';
import { clientName, defaultReadBySender } from '../src/domain/client';

describe('extractChannelIndicator', () => {
  it('accepts a raw name, a JSON name, an id and a one-element list', () => {
    expect(extractChannelIndicator('Verona')).toBe('Verona');
    expect(extractChannelIndicator('"Verona"')).toBe('Verona');
    expect(extractChannelIndicator('12')).toBe(12);
    expect(extractChannelIndicator('["Verona"]')).toBe('Verona');
    expect(extractChannelIndicator('[12]')).toBe(12);
  });

  it('refuses several channels and other JSON', () => {
    expect(() => extractChannelIndicator('[1, 2]')).toThrow('Expected exactly one channel');
    expect(() => extractChannelIndicator('{"a": 1}')).toThrow('Invalid data type for channel');
  });
});

describe('extractDirectRecipients', () => {
  it('reads JSON lists of ids or emails and comma-separated emails, without duplicates', () => {
    expect(extractDirectRecipients('[3, 4, 3]')).toEqual([3, 4]);
    expect(extractDirectRecipients('["a@x.com", " b@x.com "]')).toEqual(['a@x.com', 'b@x.com']);
    expect(extractDirectRecipients('a@x.com,b@x.com')).toEqual(['a@x.com', 'b@x.com']);
    expect(extractDirectRecipients('[]')).toEqual([]);
  });

  it('refuses mixed lists and other types', () => {
    expect(() => extractDirectRecipients('[1, "a@x.com"]')).toThrow(
      'Recipient lists may contain emails or user IDs, but not both.',
    );
    expect(() => extractDirectRecipients('{"a": 1}')).toThrow('Invalid data type for recipients');
    expect(() => extractDirectRecipients('[true]')).toThrow('Invalid data type for recipients');
  });
});

describe('client names', () => {
  it('takes the product name from the User-Agent, as Zulip does', () => {
    expect(clientName('ZulipMobile/27.1 (Android 14)', undefined)).toBe('ZulipMobile');
    expect(clientName('ZulipElectron/5.9.3 Mozilla/5.0', undefined)).toBe('ZulipElectron');
    expect(clientName(undefined, undefined)).toBe('Unspecified');
    expect(clientName('whatever', 'website')).toBe('website');
  });

  it('marks messages from full Zulip UIs as read for the sender', () => {
    expect(defaultReadBySender('ZulipMobile')).toBe(true);
    expect(defaultReadBySender('website')).toBe(true);
    expect(defaultReadBySender('ZulipDesktop app')).toBe(true);
    expect(defaultReadBySender('zulip-js')).toBe(false);
  });
});
