import { ConfabError } from '@confab/errors';
import { ignoredParameters, p, parseParams, t, type ParamDefs, type ParamSource } from '@confab/http';

function source(body: Record<string, string> = {}, query: Record<string, string> = {}): ParamSource {
  return { body: new Map(Object.entries(body)), query: new Map(Object.entries(query)) };
}

function failure(defs: ParamDefs, src: ParamSource): { msg: string; code: string; data: Record<string, unknown> } {
  try {
    parseParams(defs, src);
  } catch (err) {
    if (err instanceof ConfabError) return { msg: err.message, code: err.code, data: err.data };
    throw err;
  }
  throw new Error('expected a parameter error');
}

describe('parseParams', () => {
  const sendDefs = {
    type: p.enum('direct', 'private', 'stream', 'channel'),
    to: p.string(),
    content: p.string(),
    topic: p.string().optional().alias('subject'),
    read_by_sender: p.bool().optional(),
  };

  it('reads plain strings as sent and JSON fields as JSON', () => {
    const { values } = parseParams(
      sendDefs,
      source({ type: 'stream', to: 'Verona', content: ' hi ', read_by_sender: 'true' }),
    );
    expect(values).toEqual({ type: 'stream', to: 'Verona', content: ' hi ', topic: undefined, read_by_sender: true });
  });

  it("reports a missing parameter with Zulip's code and var_name", () => {
    expect(failure(sendDefs, source({ type: 'stream', to: 'Verona' }))).toEqual({
      msg: "Missing 'content' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      data: { var_name: 'content' },
    });
  });

  it('reports the first problem in declaration order', () => {
    expect(failure(sendDefs, source({ type: 'bogus' })).msg).toBe('Invalid type');
  });

  it('accepts an alias and refuses the name and the alias together', () => {
    const { values, used } = parseParams(sendDefs, source({ type: 'stream', to: 'x', content: 'y', subject: 'old' }));
    expect(values.topic).toBe('old');
    expect(used.has('subject')).toBe(true);
    expect(failure(sendDefs, source({ type: 'stream', to: 'x', content: 'y', topic: 'a', subject: 'b' }))).toEqual({
      msg: "Can't decide between 'topic' and 'subject' arguments",
      code: 'REQUEST_CONFUSING_VAR',
      data: { var_name1: 'topic', var_name2: 'subject' },
    });
  });

  it('takes the form body before the query string', () => {
    const { values } = parseParams({ content: p.string() }, source({ content: 'body' }, { content: 'query' }));
    expect(values.content).toBe('body');
    expect(parseParams({ content: p.string() }, source({}, { content: 'query' })).values.content).toBe('query');
  });

  it('names the alias the client used in validation errors', () => {
    const defs = { topic: p.string({ maxLength: 5 }).alias('subject') };
    expect(failure(defs, source({ subject: 'too long a topic' })).msg).toBe(
      'subject is too long (limit: 5 characters)',
    );
  });

  it('uses defaults for absent optional parameters', () => {
    const { values } = parseParams({ include: p.bool().default(false), n: p.int().default(7) }, source());
    expect(values).toEqual({ include: false, n: 7 });
  });

  describe('JSON values are validated strictly', () => {
    const cases: [string, ParamDefs, string, string][] = [
      ['integer from a string', { n: p.int() }, '"5"', 'n is not an integer'],
      ['integer from a float', { n: p.int() }, '1.5', 'n is not an integer'],
      ['integer from a boolean', { n: p.int() }, 'true', 'n is not an integer'],
      ['integer that is not JSON', { n: p.int() }, 'abc', 'n is not valid JSON'],
      ['boolean from a number', { b: p.bool() }, '1', 'b is not a boolean'],
      ['boolean written in Python', { b: p.bool() }, 'True', 'b is not valid JSON'],
      ['list from an object', { l: p.intList() }, '{}', 'l is not a list'],
      ['list element', { l: p.intList() }, '[1, "2"]', 'l[1] is not an integer'],
      ['dict from a list', { d: p.json(t.object({})) }, '[]', 'd is not a dict'],
      ['string from a number', { s: p.json(t.string()) }, '3', 's is not a string'],
      ['float from a string', { f: p.json(t.float()) }, '"x"', 'f is not a float'],
      ['literal', { v: p.json(t.literal(0, 1, 2, 3)) }, '4', 'Invalid v'],
      ['lower bound', { n: p.int({ min: 1 }) }, '0', 'n is too small'],
      ['upper bound', { n: p.int({ max: 10 }) }, '11', 'n is too large'],
    ];
    it.each(cases)('%s', (_name, defs, raw, msg) => {
      const [key] = Object.keys(defs);
      expect(failure(defs, source({ [key!]: raw }))).toEqual({ msg, code: 'BAD_REQUEST', data: {} });
    });
  });

  it('writes nested locations the way Zulip does', () => {
    const draft = p.json(
      t.object({
        type: t.literal('', 'stream', 'private'),
        to: t.list(t.int()),
        topic: t.string(),
        content: t.string(),
        timestamp: t.optional(t.int()),
      }),
    );
    const defs = { draft };
    const base = { type: 'stream', to: [1], topic: 'x', content: 'y' };
    const as = (value: unknown) => source({ draft: JSON.stringify(value) });
    expect(failure(defs, as({ ...base, type: 'other' })).msg).toBe('Invalid draft["type"]');
    expect(failure(defs, as({ ...base, to: [1, 'a'] })).msg).toBe('draft["to"][1] is not an integer');
    expect(failure(defs, as({ ...base, extra: 1 })).msg).toBe('Argument "extra" at draft["extra"] is unexpected');
    expect(failure(defs, as({ type: 'stream', to: [1], topic: 'x' })).msg).toBe(
      'Missing \'draft["content"]\' argument',
    );
    expect(parseParams(defs, as(base)).values.draft).toEqual({ ...base, timestamp: undefined });
  });

  it('checks string lengths in characters and blankness after stripping', () => {
    expect(parseParams({ s: p.string({ maxLength: 3 }) }, source({ s: '😀😀😀' })).values.s).toBe('😀😀😀');
    expect(failure({ s: p.string({ maxLength: 3 }) }, source({ s: 'abcd' })).msg).toBe(
      's is too long (limit: 3 characters)',
    );
    expect(failure({ name: p.string({ nonBlank: true }) }, source({ name: '   ' })).msg).toBe('name cannot be blank');
    expect(parseParams({ name: p.string({ nonBlank: true }) }, source({ name: ' x ' })).values.name).toBe('x');
  });

  it('accepts null only where declared', () => {
    const defs = { expires: p.json(t.nullable(t.int())) };
    expect(parseParams(defs, source({ expires: 'null' })).values.expires).toBeNull();
    expect(failure({ n: p.int() }, source({ n: 'null' })).msg).toBe('n is not an integer');
  });

  it('tries union members in order and reports the first one', () => {
    const defs = { to: p.json(t.union(t.int(), t.list(t.int()))) };
    expect(parseParams(defs, source({ to: '3' })).values.to).toBe(3);
    expect(parseParams(defs, source({ to: '[3,4]' })).values.to).toEqual([3, 4]);
    expect(failure(defs, source({ to: '"x"' })).msg).toBe('to is not an integer');
  });

  it('lets a refinement add its own message', () => {
    const defs = { n: p.json(t.refine(t.int(), (v) => (v % 2 ? 'Invalid {var_name}: odd' : undefined))) };
    expect(failure(defs, source({ n: '3' })).msg).toBe('Invalid n: odd');
  });
});

describe('values PostgreSQL cannot store', () => {
  it('refuses a NUL in any string, plain or inside JSON, unless the domain words the refusal', () => {
    expect(failure({ name: p.string() }, source({ name: 'a\u0000b' })).msg).toBe('name must not contain null bytes');
    const nested = { draft: p.json(t.object({ topic: t.string() })) };
    expect(failure(nested, source({ draft: JSON.stringify({ topic: '\u0000' }) })).msg).toBe(
      'draft["topic"] must not contain null bytes',
    );
    const domain = { topic: p.string({ nulCheckedByDomain: true }) };
    expect(parseParams(domain, source({ topic: 'a\u0000b' })).values.topic).toBe('a\u0000b');
  });

  it('refuses integers beyond int64 as too large or too small', () => {
    const defs = { n: p.int(), list: p.intList() };
    expect(failure(defs, source({ n: '99999999999999999999999', list: '[]' })).msg).toBe('n is too large');
    expect(failure(defs, source({ n: '-99999999999999999999999', list: '[]' })).msg).toBe('n is too small');
    expect(failure(defs, source({ n: '1', list: '[9223372036854775808]' })).msg).toBe('list[0] is too large');
    expect(parseParams(defs, source({ n: '9007199254740991', list: '[]' })).values.n).toBe(9007199254740991);
  });

  it("tells a parameter's kind for the route listing", () => {
    expect(p.string().options.kind).toBe('string');
    expect(p.int().optional().options.kind).toBe('int');
    expect(p.json(t.nullable(t.int())).options.kind).toBe('int');
    expect(p.enum('a').options.kind).toBe('enum');
    expect(p.intList().options.kind).toBe('json');
  });
});

describe('ignoredParameters', () => {
  it('lists unconsumed keys from body and query, sorted and once', () => {
    const src = source({ zeta: '1', content: 'x', alpha: '2' }, { alpha: '3', beta: '4' });
    const { used } = parseParams({ content: p.string() }, src);
    expect(ignoredParameters(src, used)).toEqual(['alpha', 'beta', 'zeta']);
  });

  it('is empty when everything was used, including aliases', () => {
    const src = source({ subject: 'x' });
    const { used } = parseParams({ topic: p.string().alias('subject') }, src);
    expect(ignoredParameters(src, used)).toEqual([]);
  });
});
