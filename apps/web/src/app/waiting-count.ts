/** The tab's title with the count in front: "(3) Inbox · Interlock". */
export function titleWithCount(title: string, count: number): string {
  const bare = title.replace(/^\(\d+\+?\) /, '');
  return count > 0 ? `(${count > 99 ? '99+' : count}) ${bare}` : bare;
}

/** The favicon with a red badge holding the count (an SVG data URL; the plain icon at 0). */
export function faviconWithCount(count: number): string {
  if (count <= 0) return '/favicon.svg';
  const label = count > 99 ? '99+' : String(count);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="7" fill="#1c7ed6"/>` +
    `<circle cx="22" cy="10" r="10" fill="#e03131"/>` +
    `<text x="22" y="14" font-family="Arial,sans-serif" font-size="${label.length > 2 ? 8 : 12}" font-weight="700" fill="#fff" text-anchor="middle">${label}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
