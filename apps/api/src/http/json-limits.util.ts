/** No object the API takes needs more fields than this; more is refused before parsing. */
export const MAX_JSON_FIELDS_PER_OBJECT = 1_000;
/** Fields and array items in one body, all levels together. */
export const MAX_JSON_VALUES = 20_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

interface Frame {
  readonly object: boolean;
  /** Fields (object) or items (array) seen so far. */
  count: number;
  /** Object: the byte range of the current field's name. */
  keyStart: number;
  keyEnd: number;
  /** Array: true right after `[`, until the first item (or `]`) shows. */
  open: boolean;
}

/**
 * Bounds what a JSON body may cost before anything parses it: one pass over the raw bytes
 * counts the fields of each object and the fields and items of the whole body. A body with
 * more than MAX_JSON_FIELDS_PER_OBJECT fields in one object, or more than MAX_JSON_VALUES in
 * all, gets a short message naming the first field (or item) over the limit; otherwise null.
 * Malformed JSON is left to the parser (this returns null or a limit message for it).
 *
 * Works on UTF-8 bytes: every byte it looks at is ASCII, and no multi-byte UTF-8 sequence
 * contains an ASCII byte, so no decoding is needed.
 */
export function jsonSizeProblem(bytes: Uint8Array, root = 'body'): string | null {
  const stack: Frame[] = [];
  let total = 0;
  let lastStringStart = -1;
  let lastStringEnd = -1;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    const top = stack[stack.length - 1];
    if (
      top !== undefined &&
      !top.object &&
      top.open &&
      c !== 0x20 &&
      c !== 0x0a &&
      c !== 0x0d &&
      c !== 0x09
    ) {
      top.open = false;
      if (c !== CLOSE_ARRAY) {
        top.count = 1;
        if (++total > MAX_JSON_VALUES) return totalProblem(bytes, stack, root);
      }
    }
    switch (c) {
      case QUOTE: {
        const start = i + 1;
        i = closingQuote(bytes, start);
        lastStringStart = start;
        lastStringEnd = i;
        break;
      }
      case OPEN_OBJECT:
        stack.push({ object: true, count: 0, keyStart: -1, keyEnd: -1, open: false });
        break;
      case OPEN_ARRAY:
        stack.push({ object: false, count: 0, keyStart: -1, keyEnd: -1, open: true });
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (stack.pop() === undefined) return null;
        break;
      case COLON:
        if (top?.object) {
          top.count++;
          top.keyStart = lastStringStart;
          top.keyEnd = lastStringEnd;
          if (top.count > MAX_JSON_FIELDS_PER_OBJECT) {
            return `${pathOf(bytes, stack.slice(0, -1), root)}: has more than ${MAX_JSON_FIELDS_PER_OBJECT} fields (the first over the limit is ${pathOf(bytes, stack, root)})`;
          }
          if (++total > MAX_JSON_VALUES) return totalProblem(bytes, stack, root);
        }
        break;
      case COMMA:
        if (top !== undefined && !top.object) {
          top.count++;
          if (++total > MAX_JSON_VALUES) return totalProblem(bytes, stack, root);
        }
        break;
      default:
        break;
    }
  }
  return null;
}

/** The index of the quote that ends a string starting at `from` (or the length): native search. */
function closingQuote(bytes: Uint8Array, from: number): number {
  for (let at = from; ; at++) {
    at = bytes.indexOf(QUOTE, at);
    if (at < 0) return bytes.length;
    let backslashes = 0;
    while (at - 1 - backslashes >= from && bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

function totalProblem(bytes: Uint8Array, stack: readonly Frame[], root: string): string {
  return `${root}: has more than ${MAX_JSON_VALUES} fields and array items in all (the first over the limit is ${pathOf(bytes, stack, root)})`;
}

/** `body.actionRequests.3.args.x` for the current position of each open frame. */
function pathOf(bytes: Uint8Array, frames: readonly Frame[], root: string): string {
  let path = root;
  for (const frame of frames) {
    path += frame.object
      ? `.${fieldName(bytes, frame.keyStart, frame.keyEnd)}`
      : `.${Math.max(0, frame.count - 1)}`;
  }
  return path;
}

function fieldName(bytes: Uint8Array, start: number, end: number): string {
  if (start < 0) return '?';
  const raw = Buffer.from(
    bytes.buffer,
    bytes.byteOffset + start,
    Math.min(end, start + 200) - start,
  ).toString('utf8');
  let name = raw;
  try {
    name = JSON.parse(`"${raw}"`) as string;
  } catch {
    // a name cut inside an escape: show it as sent
  }
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}
