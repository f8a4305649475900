import { avatarHue, initials, localTime, roleName, searchPeople } from '../src/people/describe';

describe('what the people views say about a person', () => {
  it('names roles as Zulip does, bots as bots', () => {
    expect(roleName({ role: 100 })).toBe('Owner');
    expect(roleName({ role: 200 })).toBe('Administrator');
    expect(roleName({ role: 600 })).toBe('Guest');
    expect(roleName({})).toBe('Member');
    expect(roleName({ role: 400, is_bot: true })).toBe('Bot');
  });

  it("gives a person's local time in their time zone, or nothing without one", () => {
    const noonUtc = new Date(Date.UTC(2026, 0, 15, 12, 5));
    expect(localTime('Asia/Tokyo', noonUtc, true)).toBe('21:05');
    expect(localTime('America/New_York', noonUtc, false)).toBe('7:05 AM');
    expect(localTime('', noonUtc, true)).toBeNull();
    expect(localTime('Not/AZone', noonUtc, true)).toBeNull();
  });

  it('draws initials from the first and last words, and a stable hue per person', () => {
    expect(initials('Othello, the Moor of Venice')).toBe('OV');
    expect(initials('iago')).toBe('I');
    expect(initials('  ')).toBe('?');
    expect(initials('Élodie Ñúñez')).toBe('ÉÑ');
    expect(avatarHue(7)).toBe(avatarHue(7));
    expect(avatarHue(7)).not.toBe(avatarHue(8));
  });

  it('finds people by every word of the query in their name or address, in name order', () => {
    const people = [
      { full_name: 'King Hamlet', email: 'hamlet@zulip.com' },
      { full_name: 'Iago', email: 'iago@zulip.com' },
      { full_name: 'Cordelia, Lear’s daughter', email: 'cordelia@zulip.com' },
    ];
    expect(searchPeople(people, 'ham').map((p) => p.full_name)).toEqual(['King Hamlet']);
    expect(searchPeople(people, 'zulip').map((p) => p.full_name)).toEqual([
      'Cordelia, Lear’s daughter',
      'Iago',
      'King Hamlet',
    ]);
    expect(searchPeople(people, 'lear daughter')).toHaveLength(1);
    expect(searchPeople(people, 'lear iago')).toHaveLength(0);
  });
});
