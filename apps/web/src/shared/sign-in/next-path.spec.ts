import { safeNextPath } from './next-path';

// Issue 34, item 10: `?next=/\evil.com` passed the "starts with / but not //" check, and a
// browser reads a backslash as a slash: the sign-in page sent people to another origin.
describe('safeNextPath: where sign-in goes next', () => {
  it.each([
    '/inbox',
    '/interrupts/0b7c4a52-1f0e-4d7a-9a51-55bd2b0b1e11?edit=deploy',
    '/audit-log?q=a#top',
    '/invitations/X6JaqQtQvu0lacGUcX3lPQZLod6iFwt1xZiSO6LpBCU',
  ])('keeps the same-origin path %j', (next) => {
    expect(safeNextPath(next)).toBe(next);
  });

  it.each([
    null,
    '',
    'inbox',
    '//evil.com',
    '/\\evil.com',
    '\\/evil.com',
    '/\\/evil.com',
    '\\\\evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/..//evil.com',
    '/./\\evil.com',
    'https://evil.com/inbox',
    'javascript:alert(1)',
    ' /inbox',
  ])('refuses %j and goes to the start page', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });
});
