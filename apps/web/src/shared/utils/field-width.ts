/**
 * The least width a select's input needs so that its longest choice shows whole: the label in
 * `ch` of the input's own font plus room for its padding and the chevron. For a select in a table
 * cell, whose column would otherwise be only as wide as an input's default (issue 31: Settings →
 * Notifications read "Default (Immediatel").
 */
export function fieldWidthFor(labels: readonly string[]): string {
  const longest = Math.max(0, ...labels.map((label) => label.length));
  return `calc(${longest}ch + 3rem)`;
}
