/**
 * JSON text written straight into bytes: the request line is built in the buffer its turn of
 * the event loop writes out (`lineBatching`), with no string made for a piece of it (issue 28:
 * the line's ~40 joined strings, ~3 KB a request, were most of its cost). Each piece is the
 * UTF-8 of what `JSON.stringify` writes for it (`json-bytes.util.spec.ts`).
 */

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const INITIAL_BYTES = 64 * 1024;
/** A buffer grown past this (a turn of many lines) is let go once written out, not kept. */
const KEPT_BYTES = 1024 * 1024;

/** One growing byte buffer, written from its start again once its text has been taken. */
export class JsonBytes {
  private bytes: Buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  /** How many bytes are written. */
  length = 0;

  /** Room for `count` more bytes. */
  private room(count: number): Buffer {
    const needed = this.length + count;
    if (needed > this.bytes.length) {
      let size = this.bytes.length * 2;
      while (size < needed) size *= 2;
      const grown = Buffer.allocUnsafe(size);
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    return this.bytes;
  }

  /** The bytes written so far: a view of the buffer, valid until the next write after `clear`. */
  view(): Buffer {
    return this.bytes.subarray(0, this.length);
  }

  /** Starts again from the first byte (a buffer grown very large is dropped). */
  clear(): void {
    this.length = 0;
    if (this.bytes.length > KEPT_BYTES) this.bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  }

  /** Any text, as UTF-8. */
  text(text: string): void {
    const bytes = this.room(text.length * 3);
    this.length += bytes.write(text, this.length, 'utf8');
  }

  /**
   * Text known to be printable ASCII with nothing JSON escapes (the line's fixed pieces, a
   * time field): copied a byte a character.
   */
  ascii(text: string): void {
    const count = text.length;
    const bytes = this.room(count);
    let at = this.length;
    for (let i = 0; i < count; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Bytes made beforehand (a fixed piece of a line, `JsonBytes.piece`). */
  raw(piece: Uint8Array): void {
    this.room(piece.length).set(piece, this.length);
    this.length += piece.length;
  }

  /** `text`'s UTF-8, made once, for `raw`. */
  static piece(text: string): Uint8Array {
    return Buffer.from(text, 'utf8');
  }

  /** Each of `texts`' UTF-8, made once. */
  static pieces<K extends string>(texts: Record<K, string>): Record<K, Uint8Array> {
    const made = {} as Record<K, Uint8Array>;
    for (const name in texts) made[name] = JsonBytes.piece(texts[name]);
    return made;
  }

  /** One byte (an ASCII character's code). */
  byte(code: number): void {
    this.room(1)[this.length++] = code;
  }

  /**
   * `text` as a JSON string. Printable ASCII with no `"` or `\` (nearly every header, URL and
   * id) is copied a byte a character as it is checked; anything else is written as
   * `JSON.stringify` writes it.
   */
  string(text: string): void {
    const count = text.length;
    const bytes = this.room(count + 2);
    const start = this.length;
    let at = start;
    bytes[at++] = QUOTE;
    for (let i = 0; i < count; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code > 0x7e || code === QUOTE || code === 0x5c) {
        this.length = start;
        this.text(JSON.stringify(text));
        return;
      }
      bytes[at++] = code;
    }
    bytes[at++] = QUOTE;
    this.length = at;
  }

  /** A number as `JSON.stringify` writes it: a non-negative safe integer digit by digit. */
  number(value: number): void {
    if (!(value >= 0 && Number.isSafeInteger(value))) {
      this.ascii(JSON.stringify(value));
      return;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    const bytes = this.room(digits);
    let at = this.length + digits;
    this.length = at;
    let rest = value;
    do {
      bytes[--at] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /**
   * A value as `JSON.stringify` writes it (a header's: a string, a number, a list of strings);
   * false, writing nothing, for what it leaves out (undefined).
   */
  value(value: unknown): boolean {
    if (typeof value === 'string') this.string(value);
    else if (typeof value === 'number') this.number(value);
    else {
      const text = JSON.stringify(value) as string | undefined;
      if (text === undefined) return false;
      this.text(text);
    }
    return true;
  }

  /**
   * The members of a JSON object for `record`'s fields (`"a":1,"b":"x"`), each value through
   * `censor` (a name → the text to write instead, or undefined to write the value); a field
   * `JSON.stringify` leaves out (undefined) is left out. With `afterOthers`, every member is
   * written after a comma (members that follow others); else the first is not.
   */
  members(
    record: Readonly<Record<string, unknown>>,
    censor: (name: string, value: unknown) => string | undefined,
    afterOthers: boolean,
  ): void {
    let comma = afterOthers;
    for (const name in record) {
      const value = record[name];
      if (value === undefined) continue;
      const at = this.length;
      if (comma) this.byte(COMMA);
      this.string(name);
      this.byte(COLON);
      if (this.value(censor(name, value) ?? value)) comma = true;
      else this.length = at;
    }
  }
}
