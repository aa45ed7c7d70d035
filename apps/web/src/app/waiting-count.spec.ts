import { faviconWithCount, titleWithCount } from './waiting-count';

describe('the waiting count in the tab', () => {
  it('goes in front of the title, replaces an earlier count, and leaves at 0', () => {
    expect(titleWithCount('Inbox · Interlock', 3)).toBe('(3) Inbox · Interlock');
    expect(titleWithCount('(3) Inbox · Interlock', 4)).toBe('(4) Inbox · Interlock');
    expect(titleWithCount('(4) Inbox · Interlock', 0)).toBe('Inbox · Interlock');
    expect(titleWithCount('Inbox · Interlock', 250)).toBe('(99+) Inbox · Interlock');
    expect(titleWithCount('(99+) Inbox · Interlock', 2)).toBe('(2) Inbox · Interlock');
  });

  it('draws the count on the favicon; the plain icon at 0', () => {
    expect(faviconWithCount(0)).toBe('/favicon.svg');
    const icon = decodeURIComponent(faviconWithCount(7).slice('data:image/svg+xml,'.length));
    expect(icon).toContain('>7</text>');
    expect(decodeURIComponent(faviconWithCount(1000))).toContain('>99+</text>');
  });
});
