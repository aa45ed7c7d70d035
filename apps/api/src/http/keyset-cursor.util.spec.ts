import { KeysetCursorCodec } from './keyset-cursor.util';

describe('KeysetCursorCodec', () => {
  const codec = new KeysetCursorCodec('a-server-secret-of-enough-length-0123456789', 'interrupts.list');
  const position = { createdAt: new Date('2026-11-21T10:11:12.345Z'), id: '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10' };

  it('round-trips a position for the same filters', () => {
    const cursor = codec.encode(position, 'status=open');
    expect(codec.decode(cursor, 'status=open')).toEqual(position);
  });

  it('refuses the cursor with other filters, or under another secret', () => {
    const cursor = codec.encode(position, 'status=open');
    expect(codec.decode(cursor, 'status=answered')).toBeUndefined();
    expect(new KeysetCursorCodec('another-secret-of-enough-length-0123456789', 'interrupts.list').decode(cursor, 'status=open')).toBeUndefined();
  });

  it('refuses a cursor of another listing', () => {
    const cursor = codec.encode(position, 'status=open');
    expect(new KeysetCursorCodec('a-server-secret-of-enough-length-0123456789', 'sessions.list').decode(cursor, 'status=open')).toBeUndefined();
  });

  it('refuses any altered character, and garbage', () => {
    const cursor = codec.encode(position, '');
    for (let i = 0; i < cursor.length; i++) {
      const c = cursor[i] === 'A' ? 'B' : 'A';
      expect(codec.decode(cursor.slice(0, i) + c + cursor.slice(i + 1), '')).toBeUndefined();
    }
    for (const junk of ['', '.', 'abc', 'a.b.c', `${cursor}.x`]) expect(codec.decode(junk, '')).toBeUndefined();
  });

  it('refuses a well-signed payload that is not a position', () => {
    const forge = (value: unknown) => {
      const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
      const signature = (codec as unknown as { sign(p: string, f: string): string }).sign(payload, '');
      return `${payload}.${signature}`;
    };
    expect(codec.decode(forge(['2026-11-21T10:11:12.345Z', 'not-a-uuid']), '')).toBeUndefined();
    expect(codec.decode(forge({ a: 1 }), '')).toBeUndefined();
  });
});
