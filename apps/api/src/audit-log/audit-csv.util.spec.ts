import { csvCell, csvRow } from './audit-csv.util';

/**
 * How a spreadsheet in a `;` locale splits a line of this file: on every `;` (quotes are of no
 * help once the `,`-separated fields run together), then each piece is a cell it may evaluate.
 */
const piecesInSemicolonLocale = (line: string) =>
  line.split(/[;\r\n]/).map((piece) => piece.replace(/^"/, ''));

describe('CSV export cells', () => {
  it('quotes every cell (RFC 4180), quotes doubled, empty values as ""', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it.each(['=SUM(A1:A9)', '+1', '-1+2', '@cmd', '\tx', '\rx'])(
    'neutralises the formula %j at the start of a cell',
    (value) => {
      expect(csvCell(value)).toBe(`"'${value}"`);
    },
  );

  // Issue 34, item 9: `Deploy;=cmd|' /C calc'!A0` was written bare and split into a formula in a `;` locale.
  it('neutralises a formula after every ; and line break, so no locale finds one', () => {
    const cell = csvCell("Deploy;=cmd|' /C calc'!A0");
    expect(cell).toBe(`"Deploy;'=cmd|' /C calc'!A0"`);
    const row = csvRow(['id-1', "Deploy;=cmd|' /C calc'!A0", 'a;+1;-2;@x', 'one\n=two', 'fine']);
    for (const piece of piecesInSemicolonLocale(row)) expect(piece).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('ends rows with CRLF', () => {
    expect(csvRow(['a', 'b'])).toBe('"a","b"\r\n');
  });
});
