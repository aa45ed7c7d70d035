import { csvCell, csvRow } from './audit-csv.util';

describe('CSV export cells', () => {
  it('quotes per RFC 4180', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it.each(['=SUM(A1:A9)', '+1', '-1+2', '@cmd', '\tx', '\rx'])('neutralises the formula %j', (value) => {
    expect(csvCell(value).replace(/^"|"$/g, '')).toMatch(/^'/);
  });

  it('ends rows with CRLF', () => {
    expect(csvRow(['a', 'b'])).toBe('a,b\r\n');
  });
});
