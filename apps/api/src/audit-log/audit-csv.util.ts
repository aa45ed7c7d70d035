import type { AuditEntryResponse } from './audit-entry.response';

export const AUDIT_CSV_COLUMNS = [
  'id',
  'createdAt',
  'action',
  'category',
  'actorType',
  'actorId',
  'actorName',
  'targetType',
  'targetId',
  'targetName',
  'summary',
  'metadata',
  'ipAddress',
] as const;

/** A character a spreadsheet reads as the start of a formula, at the start of a cell or after a `;` or line break. */
const FORMULA_START = /(^|[;\r\n])([=+\-@\t\r])/g;

/**
 * One CSV cell (RFC 4180): always quoted, quotes doubled, so no `,` `;` or line break inside it
 * can start another cell. A formula trigger (= + - @, tab, carriage return) at its start — or
 * after a `;` or a line break, where a spreadsheet in a `;` locale, which does not honour the
 * quotes of a `,`-separated file, starts a cell — is prefixed with an apostrophe, so opening
 * the export never evaluates anything (issue 34, item 9).
 */
export function csvCell(value: unknown): string {
  const text =
    value === undefined || value === null
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  return `"${text.replace(FORMULA_START, "$1'$2").replace(/"/g, '""')}"`;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export function auditCsvRow(entry: AuditEntryResponse): string {
  return csvRow(AUDIT_CSV_COLUMNS.map((column) => entry[column]));
}
