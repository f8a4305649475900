import { jsonText, textOfJson } from '@confab/zulip';
import { answerBytes, readJsonTextAnswer, successAnswer, successText } from '../src/responses';

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
  it('are found again by their layout (byte offsets), kept as JSON text, the rest parsed', () => {
    const people = '[{"full_name":"Åsa 😀 \\"Q\\""},{"id":2}]';
    const answer = successAnswer({ realm_users: jsonText(people), name: 'Zoë', empty: jsonText('[]') }, []);
    expect(answer.layout).toBeDefined();
    const bytes = answerBytes(answer);
    expect(bytes.length).toBe(answer.bytes);
    const body = readJsonTextAnswer(bytes, answer.layout!)!;
    expect(body.name).toBe('Zoë');
    expect(textOfJson(body.realm_users)).toBe(people);
    expect(textOfJson(body.empty)).toBe('[]');
    // Passed on, they are written as they came.
    expect(JSON.parse(successText({ ...body }, []))).toEqual(JSON.parse(bytes.toString('utf8')));
  });

  it('may be made of strings and UTF-8 bytes (a list with one element cut in), written one after the other', () => {
    const list = Buffer.from('[{"n":"Zoë"},{"n":"old"},{"n":"😀"}]');
    const from = list.indexOf('{"n":"old"}');
    const to = from + Buffer.byteLength('{"n":"old"}');
    const spliced = jsonText(list.subarray(0, from), '{"n":"new é"}', list.subarray(to));
    const answer = successAnswer({ realm_users: spliced, n: 3 }, []);
    const bytes = answerBytes(answer);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({
      result: 'success',
      msg: '',
      n: 3,
      realm_users: [{ n: 'Zoë' }, { n: 'new é' }, { n: '😀' }],
    });
    const read = readJsonTextAnswer(bytes, answer.layout!)!;
    expect(JSON.parse(textOfJson(read.realm_users)!)).toEqual([{ n: 'Zoë' }, { n: 'new é' }, { n: '😀' }]);
  });

  it('have no layout when there are none, and a layout that does not fit is refused', () => {
    expect(successAnswer({ a: 1 }, []).layout).toBeUndefined();
    const bytes = answerBytes(successAnswer({ a: jsonText('[1]') }, []));
    expect(readJsonTextAnswer(bytes, `${bytes.length + 5};a=1-2`)).toBeNull();
    expect(readJsonTextAnswer(bytes, '3;a=1-2')).toBeNull();
  });
});
