import { channelMatches, channelTerms, filterChannels, filterPeople, personMatches } from '../src/sidebar/filter';
import { parseCollapsed, storedCollapsed } from '../src/sidebar/state';

const names = (list: { name: string }[]) => list.map((c) => c.name);

describe("the sidebar's channel filter", () => {
  const channels = [
    'Denmark',
    'Verona',
    'social media',
    'design-team',
    'ops/alerts',
    'core_dev',
    'Rome',
    'Scotland',
  ].map((name) => ({ name }));

  it('matches the start of a name or of one of its words, whatever the case', () => {
    expect(names(filterChannels(channels, 'den'))).toEqual(['Denmark']);
    expect(names(filterChannels(channels, 'DEN'))).toEqual(['Denmark']);
    expect(names(filterChannels(channels, 'media'))).toEqual(['social media']);
    expect(names(filterChannels(channels, 'team'))).toEqual(['design-team']);
    expect(names(filterChannels(channels, 'alerts'))).toEqual(['ops/alerts']);
    expect(names(filterChannels(channels, 'dev'))).toEqual(['core_dev']);
  });

  it('does not match inside a word', () => {
    expect(names(filterChannels(channels, 'mark'))).toEqual([]);
    expect(names(filterChannels(channels, 'ona'))).toEqual([]);
    // "land" is inside "Scotland", not a word of it.
    expect(channelMatches('Scotland', 'land')).toBe(false);
  });

  it('offers several choices separated by commas, ignores a leading # and spaces around', () => {
    expect(names(filterChannels(channels, 'den, ro'))).toEqual(['Denmark', 'Rome']);
    expect(names(filterChannels(channels, '#ver'))).toEqual(['Verona']);
    expect(channelTerms('  #Den , , soc ')).toEqual(['den', 'soc']);
  });

  it('matches a phrase across words, and names with accents without them', () => {
    expect(names(filterChannels(channels, 'social me'))).toEqual(['social media']);
    expect(channelMatches('Café crème', 'creme')).toBe(true);
    expect(channelMatches('creme', 'Crème')).toBe(true);
  });

  it('keeps every channel, in order, for an empty filter', () => {
    expect(filterChannels(channels, '')).toEqual(channels);
    expect(filterChannels(channels, ' , ')).toEqual(channels);
  });

  it('finds a word that comes again later in the name', () => {
    // The first "sea" is inside "chelsea"; the second starts a word.
    expect(channelMatches('chelsea sea-view', 'sea')).toBe(true);
  });
});

describe("the sidebar's people search", () => {
  const people = [
    { full_name: 'King Hamlet', email: 'hamlet@zulip.com' },
    { full_name: 'Othello, the Moor of Venice', email: 'othello@zulip.com' },
    { full_name: 'Cordelia, Lear’s daughter', email: 'cordelia@zulip.com' },
    { full_name: 'Élodie Ñúñez', email: 'elodie@example.org' },
  ];
  const found = (query: string) => filterPeople(people, query).map((p) => p.full_name);

  it('matches the start of any word of the full name, whatever the case', () => {
    expect(found('ham')).toEqual(['King Hamlet']);
    expect(found('KING')).toEqual(['King Hamlet']);
    expect(found('moor')).toEqual(['Othello, the Moor of Venice']);
    expect(found('lear')).toEqual(['Cordelia, Lear’s daughter']);
  });

  it('needs every word typed to start a word of the name', () => {
    expect(found('moor ven')).toEqual(['Othello, the Moor of Venice']);
    expect(found('moor ham')).toEqual([]);
    expect(found('amlet')).toEqual([]);
  });

  it('matches the start of the email address', () => {
    expect(found('othello@')).toEqual(['Othello, the Moor of Venice']);
    expect(found('ELODIE@EX')).toEqual(['Élodie Ñúñez']);
    expect(personMatches(people[0], 'zulip.com')).toBe(false);
  });

  it('ignores accents, and keeps everyone for an empty search', () => {
    expect(found('nunez')).toEqual(['Élodie Ñúñez']);
    expect(found('élo')).toEqual(['Élodie Ñúñez']);
    expect(found('   ')).toEqual(people.map((p) => p.full_name));
  });
});

describe("the sidebar's collapsed sections, as stored", () => {
  it('reads back what it stores', () => {
    const stored = storedCollapsed(new Set(['bots', 'channels']));
    expect(stored).toBe('["channels","bots"]');
    expect([...parseCollapsed(stored)].sort()).toEqual(['bots', 'channels']);
  });

  it('starts with every section open from nothing, or from anything it did not write', () => {
    expect(parseCollapsed(null).size).toBe(0);
    expect(parseCollapsed('not json').size).toBe(0);
    expect(parseCollapsed('{"channels":true}').size).toBe(0);
    expect([...parseCollapsed('["people", "nonsense", 3]')]).toEqual(['people']);
  });
});
