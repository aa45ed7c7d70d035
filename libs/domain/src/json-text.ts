/**
 * A JSON document already written out as text: answered as it is, without a second
 * serialisation. A hot read renders (part of) its answer in the statement that reads it, and
 * the HTTP layer sends these bytes where it would have sent `JSON.stringify` of the value.
 * `T` is the value the text parses to, which is what the route's contract describes.
 */
export class JsonText<T = unknown> {
  constructor(readonly text: string) {}

  /** The value the text stands for (tests and in-process callers). */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}
