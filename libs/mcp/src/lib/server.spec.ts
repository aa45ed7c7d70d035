import { truncate } from './server';

describe('truncate', () => {
  it('keeps short text, cuts long text to the limit with an ellipsis', () => {
    expect(truncate('Which region?', 200)).toBe('Which region?');
    const cut = truncate('x'.repeat(250), 200);
    expect(cut).toHaveLength(200);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('counts code points and never leaves half a surrogate pair', () => {
    const text = `${'a'.repeat(198)}😀😀😀`;
    const cut = truncate(text, 200);
    expect(Array.from(cut)).toHaveLength(200);
    expect(cut).toBe(`${'a'.repeat(198)}😀…`);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut)).toBe(false);
  });
});
