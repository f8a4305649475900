import { jsonText } from '@confab/zulip';
import { successText } from '../src/responses';

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
