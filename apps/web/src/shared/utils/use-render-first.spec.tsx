import { render } from '@testing-library/react';
import { useRenderFirst } from './use-render-first';

function List({ items, seen }: { items: number[]; seen: number[] }) {
  const rows = useRenderFirst(items, 12);
  seen.push(rows.length);
  return (
    <ul>
      {rows.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('useRenderFirst', () => {
  it('draws the first rows, then the whole list; a later list at once', () => {
    const seen: number[] = [];
    const { container, rerender } = render(<List items={range(50)} seen={seen} />);
    expect(seen[0]).toBe(12);
    expect(container.querySelectorAll('li')).toHaveLength(50);

    seen.length = 0;
    rerender(<List items={range(100)} seen={seen} />);
    expect(seen.every((n) => n === 100)).toBe(true);
    expect(container.querySelectorAll('li')).toHaveLength(100);
  });

  it('draws a short list whole at once', () => {
    const seen: number[] = [];
    render(<List items={range(5)} seen={seen} />);
    expect(seen.every((n) => n === 5)).toBe(true);
  });
});
