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

// NestJS asks of every answer a route returns whether it is a plain object (`isPlainObject`, in
// its router's `pickStreamingBody`): for an instance whose prototype has its own `constructor`,
// by printing that constructor's source and Object's (`Function.prototype.toString`) and
// comparing them, ~0.3 µs a call. A JsonText is not one either way; with no `constructor` of its
// own on the prototype (`.constructor` is then Object's, read by nothing of ours: `instanceof`
// reads the prototype), Nest's answer — no — comes at once (issue 28: every whoami, PK read and
// page returns one).
delete (JsonText.prototype as { constructor?: unknown }).constructor;
