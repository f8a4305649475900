import { jsonText, textOfJson } from '@confab/zulip';
import { readJsonTextAnswer, successAnswer, successText } from '../src/responses';

describe('successText', () => {
  it('writes the envelope and the data', () => {
    expect(JSON.parse(successText({ a: [1, 2] }, []))).toEqual({ result: 'success', msg: '', a: [1, 2] });
  });

  it('writes a value given as JSON text as it is, beside the others and the ignored parameters', () => {
    const text = successText({ people: jsonText('[{"id":1},{"id":2}]'), count: 2, empty: jsonText('[]') }, ['x']);
    expect(text).toContain('"people":[{"id":1},{"id":2}]');
    expect(JSON.parse(text)).toEqual({
      result: 'success',
      msg: '',
      count: 2,
      people: [{ id: 1 }, { id: 2 }],
      empty: [],
      ignored_parameters_unsupported: ['x'],
    });
  });
});

describe('JSON-text fields between services', () => {
  it('are found again by their layout, kept as JSON text, the rest parsed', () => {
    const people = '[{"full_name":"Åsa 😀 \\"Q\\""},{"id":2}]';
    const { text, layout } = successAnswer({ realm_users: jsonText(people), name: 'Zoë', empty: jsonText('[]') }, []);
    expect(layout).toBeDefined();
    const body = readJsonTextAnswer(text, layout!)!;
    expect(body.name).toBe('Zoë');
    expect(textOfJson(body.realm_users)).toBe(people);
    expect(textOfJson(body.empty)).toBe('[]');
    // Passed on, they are written as they came.
    expect(JSON.parse(successText({ ...body }, []))).toEqual(JSON.parse(text));
  });

  it('have no layout when there are none, and a layout that does not fit is refused', () => {
    expect(successAnswer({ a: 1 }, []).layout).toBeUndefined();
    const { text } = successAnswer({ a: jsonText('[1]') }, []);
    expect(readJsonTextAnswer(text, `${text.length + 5};a=1-2`)).toBeNull();
    expect(readJsonTextAnswer(text, '3;a=1-2')).toBeNull();
  });
});
