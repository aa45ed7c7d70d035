import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '@/test/render';
import { LoadMore, type PagedQuery } from './load-more';

function aQuery(overrides: Partial<PagedQuery> = {}) {
  const asked: number[] = [];
  const query: PagedQuery = {
    hasNextPage: true,
    isFetchingNextPage: false,
    fetchNextPage: async () => asked.push(1),
    ...overrides,
  };
  return { query, asked };
}

describe('LoadMore', () => {
  it('loads the next page by hand', async () => {
    const { query, asked } = aQuery();
    renderWithApp(<LoadMore query={query} auto={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(asked).toHaveLength(1);
  });

  it('offers nothing at the end of the list', () => {
    const { query } = aQuery({ hasNextPage: false });
    renderWithApp(<LoadMore query={query} />);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows the button busy while a page loads', () => {
    const { query } = aQuery({ isFetchingNextPage: true });
    renderWithApp(<LoadMore query={query} />);
    expect(screen.getByRole('button', { name: 'Load more' })).toHaveAttribute('data-loading');
  });
});
