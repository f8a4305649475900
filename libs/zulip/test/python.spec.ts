import { pyBytesRepr, pyRepr, pyStr, pyStrRepr } from '../src/python';

const bytes = (text: string) => new TextEncoder().encode(text);

describe("Python's repr", () => {
  it('of bytes', () => {
    expect(pyBytesRepr(bytes('plain'))).toBe("b'plain'");
    expect(pyBytesRepr(bytes("it's"))).toBe('b"it\'s"');
    expect(pyBytesRepr(bytes('a\n\\b\t'))).toBe("b'a\\n\\\\b\\t'");
    expect(pyBytesRepr(bytes('é'))).toBe("b'\\xc3\\xa9'");
  });

  it('of a str', () => {
    expect(pyStrRepr('plain')).toBe("'plain'");
    expect(pyStrRepr('del\x7f nbsp\xa0 soft\xad tab\t é')).toBe("'del\\x7f nbsp\\xa0 soft\\xad tab\\t é'");
    expect(pyStrRepr('é\n')).toBe("'é\\n'");
    expect(pyStrRepr(`both ' and "`)).toBe(`'both \\' and "'`);
  });
});

describe("Python's str() of a JSON value (str(response_json['content']))", () => {
  it('writes None, booleans, numbers and dicts as Python does', () => {
    expect([null, true, false, 3, 'text'].map(pyStr)).toEqual(['None', 'True', 'False', '3', 'text']);
    expect(pyStr({ a: [1, 'b'], c: null })).toBe("{'a': [1, 'b'], 'c': None}");
    expect(pyRepr(['x'])).toBe("['x']");
  });
});
