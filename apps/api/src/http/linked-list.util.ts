/** An entry of a `LinkedList`: its neighbours, kept on the entry itself. */
export interface Linked<T> {
  before: T | undefined;
  after: T | undefined;
}

/**
 * Entries each linked to their neighbours, for what the process keeps as long as it lives and
 * adds and removes per request or connection (the requests in flight, the connections): an entry
 * unlinked points nowhere and nothing of it is left in the list — not, as with a Set or Map, in a
 * table. A Set living as long as the process has its table in V8's old generation; added to and
 * deleted from often, it is rehashed every few changes into a new table allocated old too, and
 * each table left behind keeps the entries it had (with everything they reach) until the next
 * full collection: every scavenge before it counts them alive and promotes them (issue 28,
 * session 21). A neighbour that has reached old space is relinked to the live ones when an entry
 * leaves.
 */
export class LinkedList<T extends Linked<T>> {
  private first: T | undefined = undefined;

  add(entry: T): void {
    entry.after = this.first;
    if (this.first !== undefined) this.first.before = entry;
    this.first = entry;
  }

  /** Unlinks `entry`; one not in the list (never added, or removed already) is left as it is. */
  remove(entry: T): void {
    if (entry.before === undefined) {
      if (this.first !== entry) return;
      this.first = entry.after;
    } else entry.before.after = entry.after;
    if (entry.after !== undefined) entry.after.before = entry.before;
    entry.before = undefined;
    entry.after = undefined;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let entry = this.first; entry !== undefined; entry = entry.after) yield entry;
  }
}
