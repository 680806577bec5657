/**
 * The local server's guards: the per-process token, the `Host` check against DNS rebinding,
 * and the `Origin` / `Sec-Fetch-Site` check against other sites' pages.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_COOKIE, TOKEN_HEADER } from '../protocol/store-api';

/** A fresh random token (192 bits). */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Cookies are per host, not per port: each server has its own cookie name. */
export function cookieName(port: number): string {
  return `${TOKEN_COOKIE}_${port}`;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** True when the request carries the token (header or cookie). */
export function hasToken(request: IncomingMessage, token: string, port: number): boolean {
  const header = request.headers[TOKEN_HEADER];
  if (typeof header === 'string' && same(header, token)) return true;
  const cookie = cookieValue(request.headers.cookie, cookieName(port));
  return cookie !== null && same(cookie, token);
}

/** The `host:port` values a request may name: the loopback names, and the bound host. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  names.add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return new Set([...names].map((name) => `${name}:${port}`));
}

/** The `Host` header names this server (not a rebinding name that resolves to it). */
export function hostAllowed(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = request.headers.host;
  return typeof host === 'string' && allowed.has(host.toLowerCase());
}

/**
 * The request does not come from another site's page: its `Origin`, when sent, is this
 * server's, and `Sec-Fetch-Site`, when sent, is same-origin or none (typed or opened by the user).
 */
export function originAllowed(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' || !allowed.has(url.host.toLowerCase())) return false;
  }
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}
