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
 * Statements whose answers nobody reads, as one: each one's `$n` renumbered after the values of
 * those before it, their WITH lists joined, and each statement but the last a WITH entry of its
 * own (`write_<n>`; data-modifying entries run to completion whether read or not), the last the
 * statement they lead to. All of them see the database as it was when the one statement began,
 * so none may read what another writes, nor two write the same row. Undefined when two use the
 * same WITH name, or when one has a comment or dollar-quoted text. One round trip instead of one
 * each (issue 28).
 */
export function combineStatements(statements: readonly Statement[]): Statement | undefined {
  const entries: string[] = [];
  const names = new Set<string>();
  const values: unknown[] = [];
  let last = '';
  for (const [n, statement] of statements.entries()) {
    const offset = values.length;
    // Comments and dollar-quoting are not parsed here (closing() skips quotes only): such a
    // statement runs on its own.
    if (UNPARSED.test(statement.text)) return undefined;
    const text =
      offset === 0
        ? statement.text
        : statement.text.replace(PLACEHOLDER, (match: string, k: string | undefined) =>
            k === undefined ? match : `$${Number(k) + offset}`,
          );
    const parts = statementParts(text);
    for (const cte of parts.ctes) {
      if (names.has(cte.name)) return undefined;
      names.add(cte.name);
      entries.push(cte.text);
    }
    if (n === statements.length - 1) last = parts.body;
    else {
      const name = `write_${n}`;
      if (names.has(name)) return undefined;
      names.add(name);
      entries.push(`${name} AS (${parts.body})`);
    }
    values.push(...statement.values);
  }
  return {
    text: entries.length === 0 ? last : `WITH ${entries.join(',\n')}\n${last}`,
    values,
  };
}
