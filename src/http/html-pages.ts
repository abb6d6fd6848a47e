import { createHash } from 'node:crypto';
import type { Answer } from './exchange.js';

/**
 * HTML pages this server serves (GraphiQL, the API reference, the index at /) and the
 * Content-Security-Policy each gets: everything from 'self' only, inline scripts allowed by their
 * SHA-256 hashes (computed once, when the page is built), never 'unsafe-inline' for scripts.
 */

export type CspDirectives = Record<string, string[]>;

/** Text (or any value, as text) made safe inside HTML elements and quoted attributes. */
export const escapeHtml = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `'sha256-...'` source of one inline script or style, over its exact text. */
export const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The text of every inline `<script>` (one without `src`) of a page, in order. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
}

/** The text of every `<style>` element of a page, in order. */
export function inlineStyles(html: string): string[] {
  return [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
}

/**
 * The policy every page starts from: nothing from anywhere, not framable, no `<base>`, no form
 * posts. Each page adds what it needs.
 */
const baseline: CspDirectives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

export function contentSecurityPolicy(extra: CspDirectives): string {
  const directives: CspDirectives = { ...baseline };
  for (const [name, sources] of Object.entries(extra)) directives[name] = [...new Set([...(directives[name] ?? []).filter((s) => s !== "'none'"), ...sources])];
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * A page's policy with its inline scripts (and, when `hashStyles`, its `<style>` elements) allowed
 * by hash, plus whatever else the page needs.
 */
export function policyForPage(html: string, extra: CspDirectives = {}, options: { hashStyles?: boolean } = {}): string {
  const directives: CspDirectives = { ...extra };
  const scripts = inlineScripts(html).map(sha256Source);
  if (scripts.length) directives['script-src'] = [...(extra['script-src'] ?? []), ...scripts];
  const styles = options.hashStyles ? inlineStyles(html).map(sha256Source) : [];
  if (styles.length) directives['style-src'] = [...(extra['style-src'] ?? []), ...styles];
  return contentSecurityPolicy(directives);
}

/** A page built once: its HTML and the policy that lets exactly it run. */
export interface HtmlPage {
  html: string;
  csp: string;
}

export const htmlPage = (html: string, extra: CspDirectives = {}, options: { hashStyles?: boolean } = {}): HtmlPage => ({
  html,
  csp: policyForPage(html, extra, options),
});

/** Headers of an HTML page answer: its policy, and no sniffing into something else. */
export const htmlHeaders = (page: HtmlPage): Record<string, string> => ({
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': page.csp,
  'x-content-type-options': 'nosniff',
});

export const htmlAnswer = (page: HtmlPage, status = 200): Answer => ({ status, headers: htmlHeaders(page), body: page.html });
