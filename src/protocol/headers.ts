/**
 * The application renamed itself from NowDoing to Clessira; builds from before the rebrand expect
 * `X-NowDoing-*` headers with the very same scheme, so the prefix is an option, never a literal.
 */
import type { AppBuild } from './types';

export const HEADER_PREFIXES = ['Clessira', 'NowDoing'] as const;
export type HeaderPrefix = (typeof HEADER_PREFIXES)[number];
export const DEFAULT_HEADER_PREFIX: HeaderPrefix = 'Clessira';

export interface SigningHeaderNames {
  readonly token: string;
  readonly timestamp: string;
  readonly nonce: string;
  readonly signature: string;
}

/**
 * The prefix a build of the application expects when nothing says otherwise: its first release predates the rebrand.
 */
export function defaultHeaderPrefixFor(build: AppBuild): HeaderPrefix {
  return build === 'first-release' ? 'NowDoing' : DEFAULT_HEADER_PREFIX;
}

export function isHeaderPrefix(value: string): value is HeaderPrefix {
  return (HEADER_PREFIXES as readonly string[]).includes(value);
}

/** Header names as sent (`X-Clessira-Token`); compare them lower-cased, as HTTP says. */
export function signingHeaderNames(prefix: HeaderPrefix = DEFAULT_HEADER_PREFIX): SigningHeaderNames {
  const base = `X-${prefix}-`;
  return {
    token: `${base}Token`,
    timestamp: `${base}Timestamp`,
    nonce: `${base}Nonce`,
    signature: `${base}Signature`,
  };
}
