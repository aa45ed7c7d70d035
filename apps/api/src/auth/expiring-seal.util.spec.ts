import { ExpiringSeal } from './expiring-seal.util';

interface Ticket {
  readonly who: string;
  readonly expiresAt: number;
}

const SECRET = 'a-server-secret-of-some-length-0123456789';
const NOW = Date.UTC(2026, 10, 28, 5, 0, 0);

describe('ExpiringSeal', () => {
  const seal = new ExpiringSeal<Ticket>(SECRET, 'tickets/v1', 'ticket', 400);
  const ticket = { who: 'ada@example.test', expiresAt: NOW + 60_000 };

  it('opens what it sealed until its expiry, and not from then on', () => {
    const token = seal.seal(ticket);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(seal.open(token, NOW)).toEqual(ticket);
    expect(seal.open(token, ticket.expiresAt - 1)).toEqual(ticket);
    expect(seal.open(token, ticket.expiresAt)).toBeUndefined();
  });

  it('refuses a token altered, sealed under another secret or purpose, malformed, too long or absent', () => {
    const token = seal.seal(ticket);
    const altered = `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
    expect(seal.open(altered, NOW)).toBeUndefined();
    const otherSecret = new ExpiringSeal<Ticket>(`${SECRET}-other`, 'tickets/v1', 'ticket', 400);
    expect(otherSecret.open(token, NOW)).toBeUndefined();
    const otherPurpose = new ExpiringSeal<Ticket>(SECRET, 'passes/v1', 'ticket', 400);
    expect(otherPurpose.open(token, NOW)).toBeUndefined();
    const otherAad = new ExpiringSeal<Ticket>(SECRET, 'tickets/v1', 'pass', 400);
    expect(otherAad.open(token, NOW)).toBeUndefined();
    expect(seal.open(`${token}!`, NOW)).toBeUndefined();
    const short = new ExpiringSeal<Ticket>(SECRET, 'tickets/v1', 'ticket', token.length - 1);
    expect(short.open(token, NOW)).toBeUndefined();
    expect(seal.open(undefined, NOW)).toBeUndefined();
  });
});
