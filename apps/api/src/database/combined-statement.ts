/** A statement and its values, as `query` takes them. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

interface Parts {
  /** The statement's common table expressions, `name AS (…)` each, in order. */
  ctes: { name: string; text: string }[];
  /** The statement after its WITH list (the whole statement when it has none). */
  body: string;
}

const NAME = /[a-z_][a-z0-9_]*/iy;
/** ` AS (` after a WITH entry's name (not `AS MATERIALIZED`, which no statement here uses). */
const AS_OPEN = /\s+AS\s*\(/iy;

/** The index of the `)` closing the `(` at `open`, skipping quoted text. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  throw new Error(`unbalanced parentheses in: ${text.slice(0, 80)}`);
}

/** Quoted text (left as it is: a `$1` in it is text) or a placeholder `$n` (renumbered). */
const PLACEHOLDER = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g;
/** What combineStatements does not take apart: comments and dollar-quoted text. */
const UNPARSED = /--|\/\*|\$[a-z_]*\$/i;

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at])) at++;
  return at;
}

/** A statement's WITH list taken apart from the statement it leads to. */
export function statementParts(statement: string): Parts {
  const text = statement.trim();
  if (!/^WITH\s/i.test(text)) return { ctes: [], body: text };
  const ctes: Parts['ctes'] = [];
  let at = 4;
  for (;;) {
    at = skipSpace(text, at);
    NAME.lastIndex = at;
    const name = NAME.exec(text)?.[0];
    if (name === undefined || /^recursive$/i.test(name))
      throw new Error(`not a plain WITH list: ${text.slice(0, 80)}`);
    AS_OPEN.lastIndex = at + name.length;
    if (!AS_OPEN.test(text)) throw new Error(`not a plain WITH list: ${text.slice(0, 80)}`);
    const close = closing(text, AS_OPEN.lastIndex - 1);
    ctes.push({ name: name.toLowerCase(), text: text.slice(at, close + 1) });
    at = skipSpace(text, close + 1);
    if (text[at] !== ',') return { ctes, body: text.slice(at) };
    at++;
  }
}

/**
 * The combined texts made so far, by the statements' texts and their values' counts (what the
 * text depends on), one level per statement: a write of the same shape (every interrupt opened)
 * takes its text from here instead of taking its statements apart again (issue 28: ~2 % of a
 * POST's CPU). Entries are added, never removed: a process makes a few shapes, and at most
 * MAX_SHAPES are kept (past them each is combined afresh), so the maps do not churn per request.
 */
class Shapes {
  readonly next = new Map<string, Map<number, Shapes>>();
  /** The combined text of the statements that lead here; null when they cannot be combined. */
  text: string | null | undefined;
}

const SHAPES = new Shapes();
/** How many texts `SHAPES` keeps at most. */
const MAX_SHAPES = 256;
let shapesKept = 0;

function shapeOf(statements: readonly Statement[], add: boolean): Shapes | undefined {
  let shape = SHAPES;
  for (const { text, values } of statements) {
    let byCount = shape.next.get(text);
    let next = byCount?.get(values.length);
    if (next === undefined) {
      if (!add) return undefined;
      if (byCount === undefined) {
        byCount = new Map();
        shape.next.set(text, byCount);
      }
      next = new Shapes();
      byCount.set(values.length, next);
    }
    shape = next;
  }
  return shape;
}

/**
 * Statements whose answers nobody reads, as one: each one's `$n` renumbered after the values of
 * those before it, their WITH lists joined, and each statement but the last a WITH entry of its
 * own (`write_<n>`; data-modifying entries run to completion whether read or not), the last the
 * statement they lead to. All of them see the database as it was when the one statement began,
 * so none may read what another writes, nor two write the same row. Undefined when two use the
 * same WITH name, or when one has a comment or dollar-quoted text. One round trip instead of one
 * each (issue 28).
 */
export function combineStatements(statements: readonly Statement[]): Statement | undefined {
  let text = shapeOf(statements, false)?.text;
  if (text === undefined) {
    text = combinedText(statements);
    if (shapesKept < MAX_SHAPES) {
      (shapeOf(statements, true) as Shapes).text = text;
      shapesKept++;
    }
  }
  if (text === null) return undefined;
  const values: unknown[] = [];
  for (const statement of statements) for (const value of statement.values) values.push(value);
  return { text, values };
}

/** `combineStatements`' text, made from the statements (null when they cannot be combined). */
function combinedText(statements: readonly Statement[]): string | null {
  const entries: string[] = [];
  const names = new Set<string>();
  let offset = 0;
  let last = '';
  for (const [n, statement] of statements.entries()) {
    // Comments and dollar-quoting are not parsed here (closing() skips quotes only): such a
    // statement runs on its own.
    if (UNPARSED.test(statement.text)) return null;
    const text =
      offset === 0
        ? statement.text
        : statement.text.replace(PLACEHOLDER, (match: string, k: string | undefined) =>
            k === undefined ? match : `$${Number(k) + offset}`,
          );
    const parts = statementParts(text);
    for (const cte of parts.ctes) {
      if (names.has(cte.name)) return null;
      names.add(cte.name);
      entries.push(cte.text);
    }
    if (n === statements.length - 1) last = parts.body;
    else {
      const name = `write_${n}`;
      if (names.has(name)) return null;
      names.add(name);
      entries.push(`${name} AS (${parts.body})`);
    }
    offset += statement.values.length;
  }
  return entries.length === 0 ? last : `WITH ${entries.join(',\n')}\n${last}`;
}
