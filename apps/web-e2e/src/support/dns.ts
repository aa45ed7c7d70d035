import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Publishes a TXT record at the service's name server (tools/scripts/with-service.mjs runs a real
 * DNS server that answers from INTERLOCK_DNS_DIR, and points SSO_DNS_SERVERS at it).
 */
export function publishTxt(name: string, value: string): void {
  const dir = process.env.INTERLOCK_DNS_DIR;
  if (dir === undefined)
    throw new Error('INTERLOCK_DNS_DIR is not set: run through with-service.mjs');
  writeFileSync(join(dir, name.toLowerCase()), `${value}\n`);
}
