import { useCallback } from 'react';

/** Each body cell's column name, from the table's header row ('' for a header cell without text). */
export function labelTableCells(root: ParentNode): void {
  for (const table of root.querySelectorAll<HTMLTableElement>('table')) {
    const headerRow = table.tHead?.rows[0];
    if (headerRow === undefined) continue;
    const names = [...headerRow.cells].map((cell) =>
      cell.querySelector('input, button') ? '' : (cell.textContent ?? '').trim(),
    );
    for (const body of table.tBodies) {
      for (const row of body.rows) {
        [...row.cells].forEach((cell, index) => {
          const name = names[index] ?? '';
          if (cell.dataset.label !== name) cell.dataset.label = name;
        });
      }
    }
  }
}

/**
 * Keeps every table under the element it is given (as a ref) labelled (see app.css: tables become lists on a phone, each
 * cell under its column's name). One observer for the whole page instead of a label on each
 * cell by hand: rows that arrive later (the live inbox, more pages) are labelled as they come.
 *
 * A callback ref with a clean-up (React 19), not state: the element appears only once the page
 * has loaded what it needs, and keeping it in the layout's state drew the whole signed-in frame
 * and its page a second time on every load (tools:bench-web's commit count).
 */
export function useTableCellLabels(): (element: HTMLElement | null) => (() => void) | undefined {
  return useCallback((element: HTMLElement | null) => {
    if (element === null) return undefined;
    let frame = 0;
    const schedule = () => {
      if (frame !== 0) return;
      frame = window.requestAnimationFrame(() => {
        frame = 0;
        labelTableCells(element);
      });
    };
    labelTableCells(element);
    const observer = new MutationObserver(schedule);
    observer.observe(element, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      if (frame !== 0) window.cancelAnimationFrame(frame);
    };
  }, []);
}
