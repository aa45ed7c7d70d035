import pino, { type DestinationStream } from 'pino';

/** A destination whose buffered lines can be written out at once (on exit, or by a test). */
export interface LineBatchingDestination extends DestinationStream {
  flushSync(): void;
  /** pino's `logger.flush(callback)`. */
  flush(callback?: (error?: Error) => void): void;
}

/**
 * Lines written to `out` together: the lines of one turn of the event loop are joined and
 * written in one synchronous write at the turn's end (`setImmediate`), and whatever is still
 * held when the process exits is written then. A line waits microseconds, never a timer.
 */
export function lineBatching(out: { write(text: string): unknown }): LineBatchingDestination {
  let held = '';
  const flushSync = (): void => {
    if (held === '') return;
    const text = held;
    held = '';
    out.write(text);
  };
  return {
    write(line: string): void {
      if (held === '') setImmediate(flushSync);
      held += line;
    },
    flushSync,
    flush(callback) {
      flushSync();
      callback?.();
    },
  };
}

let stdoutLines: LineBatchingDestination | undefined;

/**
 * The JSON log's destination: standard output, written synchronously (as Node itself writes to
 * a pipe or a file on Linux; pino's default hands every write to libuv's thread pool — a thread
 * hand-off and a wake-up per write, which the log line of every request paid: issue 28), the
 * lines of one turn of the event loop in one write (`lineBatching`). One per process, flushed on
 * exit.
 */
export function stdoutDestination(): LineBatchingDestination {
  if (stdoutLines === undefined) {
    const lines = lineBatching(pino.destination({ dest: process.stdout.fd || 1, sync: true }));
    process.on('exit', lines.flushSync);
    stdoutLines = lines;
  }
  return stdoutLines;
}
