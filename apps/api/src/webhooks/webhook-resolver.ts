import { lookup } from 'node:dns/promises';
import type { ResolvedAddress } from './webhook-url.util';

/**
 * Resolves webhook hosts with the system resolver (getaddrinfo: /etc/hosts, then DNS), every
 * address of every family. One object, so a test can stand in for DNS (a host name that resolves
 * to 10.0.0.1, which no real resolver here would give).
 */
export class WebhookResolver {
  async lookup(hostname: string): Promise<ResolvedAddress[]> {
    const addresses = await lookup(hostname, { all: true, verbatim: true });
    return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  }
}
