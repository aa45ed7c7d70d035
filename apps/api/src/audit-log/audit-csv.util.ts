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

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled.
 * A cell a spreadsheet would read as a formula (starting with = + - @, tab or carriage return)
 * is prefixed with an apostrophe, so opening the export never runs anything.
 */
export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export function auditCsvRow(entry: AuditEntryResponse): string {
  return csvRow(AUDIT_CSV_COLUMNS.map((column) => entry[column]));
}
