/**
 * Email domains anyone can get an address at (SPEC §8f): no organisation owns the people there,
 * so none may sign them in with its single sign-on. Exact domains, and the families (`gmx.*`,
 * `yahoo.*`, …) whose every country domain is public mail.
 */
const PUBLIC_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'passport.com',
  'yahoo.com',
  'ymail.com',
  'rocketmail.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'protonmail.ch',
  'pm.me',
  'tutanota.com',
  'tuta.io',
  'zoho.com',
  'zohomail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'fastmail.com',
  'hey.com',
  'mail.com',
  'qq.com',
  '163.com',
  '126.com',
  'web.de',
  't-online.de',
  'free.fr',
  'orange.fr',
  'laposte.net',
  'libero.it',
]);

/**
 * First labels whose every country domain is public mail: `gmx.de`, `gmx.net`, `hotmail.co.uk`,
 * `yahoo.com.br` (the label followed by a top-level domain, or `co.`/`com.` and a country code;
 * `live.acme.com` is not one).
 */
const PUBLIC_EMAIL_FAMILIES: ReadonlySet<string> = new Set([
  'gmx',
  'yahoo',
  'hotmail',
  'outlook',
  'live',
  'yandex',
]);

/** Whether `domain` (lower-case) is a public email domain. */
export function isPublicEmailDomain(domain: string): boolean {
  if (PUBLIC_EMAIL_DOMAINS.has(domain)) return true;
  const dot = domain.indexOf('.');
  return (
    dot > 0 &&
    PUBLIC_EMAIL_FAMILIES.has(domain.slice(0, dot)) &&
    /^([a-z]{2,6}|(co|com)\.[a-z]{2})$/.test(domain.slice(dot + 1))
  );
}
