import { Inject, Injectable } from '@nestjs/common';
import { type HttpRequest, type HttpResponse, nodeResponse } from '../http/platform';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';

export const SESSION_COOKIE = 'session';
/**
 * The cookie's name in production: the `__Host-` prefix makes browsers take it only from this
 * exact origin over HTTPS (Secure, Path=/, no Domain), so a sibling subdomain cannot plant one.
 */
export const HOST_SESSION_COOKIE = '__Host-session';

/** The session cookie's name: `__Host-session` in production, `session` elsewhere (plain HTTP). */
export function sessionCookieName(nodeEnv: string): string {
  return nodeEnv === 'production' ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

/** The session cookie's value (the cookie named `name`), if the request carries one. */
export function readSessionCookie(
  req: HttpRequest,
  name: string = SESSION_COOKIE,
): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,200}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/**
 * Writes and clears the `session` cookie on a response (the HTTP side of a sign-in session; the
 * session itself is `SignInSessionService`'s). Controllers call it when they sign someone in or
 * out: HttpOnly, SameSite=Lax, Secure in production (and then named `__Host-session`), for the
 * whole site.
 */
@Injectable()
export class SessionCookies {
  readonly name: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.name = sessionCookieName(config.nodeEnv);
  }

  /** The request's session token, from the cookie of this mode's name only. */
  read(req: HttpRequest): string | undefined {
    return readSessionCookie(req, this.name);
  }

  /** The sealed single sign-on flow's cookie (`sso_flow`, `__Host-sso_flow` in production). */
  get ssoFlowName(): string {
    return this.config.nodeEnv === 'production' ? '__Host-sso_flow' : 'sso_flow';
  }

  readSsoFlow(req: HttpRequest): string | undefined {
    const header = req.headers.cookie;
    if (header === undefined) return undefined;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq !== -1 && part.slice(0, eq).trim() === this.ssoFlowName)
        return part.slice(eq + 1).trim();
    }
    return undefined;
  }

  setSsoFlow(res: HttpResponse, sealed: string, expiresAt: Date): void {
    this.write(res, `${this.ssoFlowName}=${sealed}`, expiresAt);
  }

  clearSsoFlow(res: HttpResponse): void {
    this.write(res, `${this.ssoFlowName}=`, new Date(0));
  }

  set(res: HttpResponse, token: string, expiresAt: Date): void {
    this.write(res, `${this.name}=${token}`, expiresAt);
  }

  clear(res: HttpResponse): void {
    this.write(res, `${this.name}=`, new Date(0));
  }

  /**
   * Adds a `Set-Cookie` header on the Node response (either adapter), in the attribute order
   * the `cookie` package (Express's `res.cookie`) writes: `Path`, `Expires`, `HttpOnly`,
   * `SameSite`, `Secure`. The value is ours (base64url), so it needs no encoding.
   */
  private write(reply: HttpResponse, pair: string, expires: Date): void {
    const secure = this.config.nodeEnv === 'production' ? '; Secure' : '';
    const cookie = `${pair}; Path=/; Expires=${expires.toUTCString()}; HttpOnly; SameSite=Lax${secure}`;
    const res = nodeResponse(reply);
    const previous = res.getHeader('set-cookie');
    res.setHeader(
      'set-cookie',
      previous === undefined
        ? [cookie]
        : [...(Array.isArray(previous) ? previous : [String(previous)]), cookie],
    );
  }
}
