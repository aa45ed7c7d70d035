import { createHash } from 'node:crypto';
import { types, type Submittable } from 'pg';

/**
 * The part of node-postgres' `Connection` a statement is written with: its extended-protocol
 * messages and its record of the statements parsed on it (what pg's own `Query` and pg-cursor
 * use; the typings leave the record out).
 */
interface WireConnection {
  stream: { cork?(): void; uncork?(): void };
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  parse(message: { name: string; text: string }): void;
  bind(message: { statement: string; values: (string | null)[] }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: Record<string, never>): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}

/** How one statement's rows are read: its columns' names and text parsers, in order. */
class RowShape {
  private readonly names: string[];
  private readonly parsers: ((text: string) => unknown)[];

  constructor(fields: readonly FieldDescription[]) {
    this.names = fields.map((f) => f.name);
    // The driver's own parsers for each type, as its `Result` picks them for text results: the
    // global ones (this app gives its pools no `types` of their own).
    this.parsers = fields.map((f) =>
      types.getTypeParser(f.dataTypeID, (f.format ?? 'text') as 'text'),
    );
  }

  /** A row as the driver builds it: one property per column, in order (a later duplicate name wins). */
  row(values: readonly (string | null)[]): Record<string, unknown> {
    if (values.length !== this.names.length)
      throw new Error(
        `a row of ${values.length} columns where ${this.names.length} were described`,
      );
    const row: Record<string, unknown> = {};
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      const parsed = value === null ? null : this.parsers[i](value);
      // A column named `__proto__` is a property of the row, as the driver makes it, not its prototype.
      if (this.names[i] === '__proto__')
        Object.defineProperty(row, '__proto__', {
          value: parsed,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else row[this.names[i]] = parsed;
    }
    return row;
  }
}

/** A statement's rows and the command tag's counts, as the driver's `Result` has them. */
export interface StatementResult {
  command: string | null;
  rowCount: number | null;
  rows: Record<string, unknown>[];
}

const COMMAND_TAG = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

/**
 * What each connection knows of the statements parsed on it: their result's description, from
 * the execution that parsed them there (`null`: no rows). Kept per connection, as Postgres keeps
 * the prepared statement per session: a schema change that alters a statement's result makes
 * Postgres refuse it on the connections that had parsed it ("cached plan must not change result
 * type"; the pool then drops that connection), and a connection that parses it afresh describes
 * it afresh, so rows are never decoded with another session's description.
 */
const SHAPES = new WeakMap<object, Map<string, RowShape | null>>();

function shapesOf(connection: object): Map<string, RowShape | null> {
  let shapes = SHAPES.get(connection);
  if (shapes === undefined) {
    shapes = new Map();
    SHAPES.set(connection, shapes);
  }
  return shapes;
}

/**
 * A statement prepared by name on every connection that runs it. The execution that parses it on
 * a connection also asks Postgres to describe its result; every later one there reuses that
 * description, so an execution is Bind, Execute and Sync only — no RowDescription for the server
 * to send and the driver to parse again, and rows decoded with parsers chosen once (issue 14:
 * about 12 µs of the interrupt read's ~300 went to re-describing its 17 columns and copying a
 * prototype row).
 */
export class PreparedStatement {
  readonly name: string;

  constructor(readonly text: string) {
    this.name = `interlock_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  }

  /**
   * One execution with these parameters, to hand to `client.query` or `pool.query` (a
   * node-postgres Submittable), or undefined when a parameter is not a string, number, boolean,
   * null or a list of those (the inbox's statuses, a member's teams): the rest go through the
   * driver's own value conversion (`query({ name, text, values })`).
   */
  execution(params: readonly unknown[]): StatementExecution | undefined {
    const values: (string | null)[] = new Array(params.length);
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      if (p === null || p === undefined) values[i] = null;
      else if (typeof p === 'string') values[i] = p;
      else {
        const text = Array.isArray(p) ? arrayLiteral(p) : scalarText(p);
        if (text === undefined) return undefined;
        values[i] = text;
      }
    }
    return new StatementExecution(this, values);
  }
}

/** A number, boolean or bigint as the driver sends it; undefined for anything else. */
function scalarText(value: unknown): string | undefined {
  if (
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
  )
    return String(value);
  return undefined;
}

/**
 * A list as a Postgres array literal, as the driver writes one: `{"a","b \\"c\\""}`, every
 * element quoted (a backslash and a double quote escaped), NULL for null or undefined, nested
 * lists as nested literals; undefined when an element is anything else.
 */
function arrayLiteral(list: readonly unknown[]): string | undefined {
  let text = '{';
  for (let i = 0; i < list.length; i++) {
    if (i > 0) text += ',';
    const element = list[i];
    if (element === null || element === undefined) {
      text += 'NULL';
      continue;
    }
    const inner = Array.isArray(element)
      ? arrayLiteral(element)
      : typeof element === 'string'
        ? element
        : scalarText(element);
    if (inner === undefined) return undefined;
    text += Array.isArray(element)
      ? inner
      : `"${inner.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  }
  return `${text}}`;
}

/**
 * One execution of a PreparedStatement: what node-postgres' client drives through the extended
 * protocol (it calls `submit`, then a handler per message, and reads `name` and `text` when the
 * statement's Parse completes or fails). `callback` is set by the client or the pool.
 */
export class StatementExecution implements Submittable {
  callback: ((error: Error | null, result?: StatementResult) => void) | undefined;
  // Not `rows`: the driver reads a query's `rows` as its rows-per-fetch option.
  private readonly collected: Record<string, unknown>[] = [];
  private command: string | null = null;
  private rowCount: number | null = null;
  /** The connection's description of the statement; undefined until this execution learns it. */
  private shape: RowShape | null | undefined;
  private shapes: Map<string, RowShape | null> | undefined;
  private describing = false;
  private failure: Error | undefined;
  private settled = false;

  constructor(
    private readonly statement: PreparedStatement,
    private readonly values: (string | null)[],
  ) {}

  get name(): string {
    return this.statement.name;
  }

  get text(): string {
    return this.statement.text;
  }

  submit(connection: unknown): void {
    const wire = connection as WireConnection;
    const { name, text } = this.statement;
    this.shapes = shapesOf(wire);
    wire.stream.cork?.();
    try {
      if (
        wire.parsedStatements[name] === undefined &&
        wire.submittedNamedStatements[name] === undefined
      ) {
        wire.parse({ name, text });
        wire.submittedNamedStatements[name] = text;
        this.shapes.delete(name);
      }
      wire.bind({ statement: name, values: this.values });
      this.shape = this.shapes.get(name);
      if (this.shape === undefined) {
        this.describing = true;
        wire.describe({ type: 'P', name: '' });
      }
      wire.execute({});
      wire.sync();
    } finally {
      wire.stream.uncork?.();
    }
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.shape = new RowShape(message.fields);
    this.shapes?.set(this.statement.name, this.shape);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.failure) return;
    try {
      if (!this.shape)
        throw new Error(`a row from statement ${this.statement.name}, described as returning none`);
      this.collected.push(this.shape.row(message.fields));
    } catch (error) {
      // As the driver does: the rest of the answer is read, and the error reported at its end.
      this.failure = error as Error;
    }
  }

  handleCommandComplete(message: { text: string }): void {
    const tag = COMMAND_TAG.exec(message.text);
    if (!tag) return;
    this.command = tag[1];
    const count = tag[3] ?? tag[2];
    if (count !== undefined) this.rowCount = Number.parseInt(count, 10);
  }

  // Not sent for a non-empty statement executed to its end (no row limit).
  handleEmptyQuery(): void {
    return undefined;
  }

  handlePortalSuspended(): void {
    return undefined;
  }

  handleCopyInResponse(connection: unknown): void {
    (connection as WireConnection).sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {
    return undefined;
  }

  handleError(error: Error): void {
    this.settle(this.failure ?? error);
  }

  handleReadyForQuery(): void {
    if (this.failure) return this.settle(this.failure);
    // Described, and no RowDescription came: a statement that returns no rows (NoData).
    if (this.describing && this.shape === undefined) this.shapes?.set(this.statement.name, null);
    this.settle(null);
  }

  private settle(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    try {
      if (error) this.callback?.(error);
      else
        this.callback?.(null, {
          command: this.command,
          rowCount: this.rowCount,
          rows: this.collected,
        });
    } catch (thrown) {
      // As the driver does: a throwing callback must not stop the client reading its connection.
      process.nextTick(() => {
        throw thrown;
      });
    }
  }
}
