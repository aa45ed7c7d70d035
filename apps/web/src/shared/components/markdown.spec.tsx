import { screen } from '@testing-library/react';
import { renderWithApp } from '@/test/render';
import { Markdown } from './markdown';

const HOSTILE = [
  '# Deploy **now**',
  '',
  'Read [the runbook](https://example.com/runbook) first.',
  '',
  '<script>window.__pwned = true</script>',
  '<img src=x onerror="window.__pwned = true">',
  '<a href="https://example.com" onclick="window.__pwned = true">html link</a>',
  '',
  '[click me](javascript:window.__pwned=true) and [data](data:text/html,<b>x</b>)',
  '',
  '![tracker](https://tracker.example/pixel.png)',
].join('\n');

describe('Markdown', () => {
  it('renders what an agent wrote as Markdown and nothing it could run', async () => {
    const { container } = renderWithApp(<Markdown text={HOSTILE} label="Description" />);
    // The renderer is its own lazily loaded chunk: wait for the heading it draws.
    expect(await screen.findByRole('heading', { name: 'Deploy now' })).toBeInTheDocument();
    expect(screen.getByText('now').tagName).toBe('STRONG');

    const runbook = screen.getByRole('link', { name: 'the runbook' });
    expect(runbook).toHaveAttribute('href', 'https://example.com/runbook');
    expect(runbook).toHaveAttribute('target', '_blank');
    expect(runbook).toHaveAttribute('rel', 'noopener noreferrer nofollow');

    // No element the agent's HTML asked for, no handler, no script URL, no remote image.
    expect(container.querySelector('script, img, iframe, [onerror], [onclick]')).toBeNull();
    for (const link of container.querySelectorAll('a'))
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
    expect(screen.queryByRole('link', { name: 'click me' })).toBeNull();
    expect(screen.getByText(/click me/)).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
    // The HTML the agent sent is there to read, as text.
    expect(
      screen.getByText('<script>window.__pwned = true</script>', { exact: false }),
    ).toBeInTheDocument();
  });
});
