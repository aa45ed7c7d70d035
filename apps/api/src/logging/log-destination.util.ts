import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';
import { JsonBytes } from './json-bytes.util';

/** A destination whose buffered lines can be written out at once (on exit, or by a test). */
export interface LineBatchingDestination extends DestinationStream {
  flushSync(): void;
  /** pino's `logger.flush(callback)`. */
  flush(callback?: (error?: Error) => void): void;
  /**
   * The bytes this turn of the event loop will write, for a line written straight into them
   * (the request line, `httpLogger`): whole lines only, each ending in a newline.
   */
  turnBytes(): JsonBytes;
}

/**
 * Lines written to `out` together: the lines of one turn of the event loop are written into
 * one byte buffer (reused turn after turn) and handed to `out` in one synchronous write at the
 * turn's end (`setImmediate`), and whatever is still held when the process exits is written
 * then. A line waits microseconds, never a timer. `out.write` must be done with the bytes when
 * it returns: the buffer is written over by the next turn.
 */
export function lineBatching(out: { write(bytes: Buffer): unknown }): LineBatchingDestination {
  const held = new JsonBytes();
  let flushAhead = false;
  const flushSync = (): void => {
    flushAhead = false;
    if (held.length === 0) return;
    try {
      out.write(held.view());
    } finally {
      held.clear();
    }
  };
  const turnBytes = (): JsonBytes => {
    if (!flushAhead) {
      flushAhead = true;
      setImmediate(flushSync);
    }
    return held;
  };
  return {
    write(line: string): void {
      turnBytes().text(line);
    },
    turnBytes,
    flushSync,
    flush(callback) {
      flushSync();
      callback?.();
    },
  };
}

/** How long a write waits when the reader has not made room (a full pipe: `EAGAIN`) before it tries again. */
const FULL_PIPE_WAIT_MS = 100;
const waitCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes `data` (text as UTF-8) to `fd` in full, synchronously: what the kernel did not take (a
 * pipe takes at most what it has room for) is written next, and while the reader has made no
 * room (`EAGAIN` or `EBUSY`: a non-blocking descriptor, a full pipe) the thread waits 100 ms and
 * tries again;
 * any other failure is thrown. pino's `sonic-boom` did the same with three more passes over the
 * text (its byte counts): about a microsecond a request line (issue 28).
 */
export function writeFully(fd: number, data: string | Uint8Array): void {
  let rest = typeof data === 'string' ? Buffer.from(data) : data;
  for (;;) {
    let written: number;
    try {
      written = writeSync(fd, rest);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN' && code !== 'EBUSY') throw error;
      Atomics.wait(waitCell, 0, 0, FULL_PIPE_WAIT_MS);
      continue;
    }
    if (written >= rest.length) return;
    rest = rest.subarray(written);
  }
}

let stdoutLines: LineBatchingDestination | undefined;

/**
 * The JSON log's destination: standard output, written synchronously (as Node itself writes to
 * a pipe or a file on Linux; pino's default hands every write to libuv's thread pool — a thread
 * hand-off and a wake-up per write, which the log line of every request paid: issue 28), the
 * lines of one turn of the event loop in one write (`lineBatching`, `writeFully`). One per
 * process, flushed on exit; when the reader has gone (EPIPE), lines are dropped and the process
 * carries on.
 */
export function stdoutDestination(): LineBatchingDestination {
  if (stdoutLines === undefined) {
    const fd = process.stdout.fd || 1;
    // The reader gone (a log collector restarted, `| head`): Node ignores SIGPIPE, so the write
    // throws EPIPE. The service keeps serving and stops logging, as pino's destination did;
    // any other failure is thrown.
    let readerGone = false;
    const lines = lineBatching({
      write: (bytes: Buffer) => {
        if (readerGone) return;
        try {
          writeFully(fd, bytes);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
          readerGone = true;
        }
      },
    });
    process.on('exit', lines.flushSync);
    stdoutLines = lines;
  }
  return stdoutLines;
}
