/**
 * What redaction looks for in a string: secrets by well-known shapes, home-directory paths and
 * e-mail addresses. Each kind is one global regular expression; the order of
 * {@link REDACT_PATTERNS} is the order they are applied in, so a PEM block is taken whole before
 * the token shapes could match pieces of it, and a bearer header before its token's own shape.
 */

/** The kinds a redaction report counts. */
export const REDACT_KINDS = [
  'private-key',
  'jwt',
  'bearer-token',
  'openai-key',
  'anthropic-key',
  'github-token',
  'aws-access-key',
  'slack-token',
  'google-api-key',
  'email',
  'home-path',
] as const;

/** One of {@link REDACT_KINDS}. */
export type RedactKind = (typeof REDACT_KINDS)[number];

/** One kind's pattern. */
export interface RedactPattern {
  kind: RedactKind;
  regex: RegExp;
  /** The group holding the value to replace; the text around it in the match is kept. */
  group: number;
}

/**
 * The patterns. Replacement markers (`[REDACTED:kind-N]`) contain `[`, `:` and `]`, which none
 * of these patterns accepts inside a value, so redacting twice changes nothing the second time.
 */
export const REDACT_PATTERNS: readonly RedactPattern[] = [
  // PEM private keys (RSA, EC, OPENSSH, ENCRYPTED, plain PKCS#8), BEGIN to END inclusive.
  { kind: 'private-key', regex: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g, group: 0 },
  // JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ" is `{"`).
  { kind: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, group: 0 },
  // `Authorization: Bearer …` and the like: the credential after the scheme.
  { kind: 'bearer-token', regex: /\b[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{8,}=*)/g, group: 1 },
  { kind: 'anthropic-key', regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, group: 0 },
  // OpenAI-style keys (sk-…, sk-proj-…, sk-svcacct-…); also DeepSeek's, which share the shape.
  { kind: 'openai-key', regex: /\bsk-(?:[A-Za-z]+-)?[A-Za-z0-9_-]{20,}/g, group: 0 },
  // GitHub: classic tokens (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained ones (github_pat_).
  { kind: 'github-token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g, group: 0 },
  // AWS access key ids: long-term (AKIA) and temporary (ASIA).
  { kind: 'aws-access-key', regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, group: 0 },
  { kind: 'slack-token', regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0 },
  { kind: 'google-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}/g, group: 0 },
  { kind: 'email', regex: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, group: 0 },
  // The user's segment of a home directory: /home/NAME, /Users/NAME, C:\Users\NAME (either slash).
  { kind: 'home-path', regex: /(?:\/home\/|\/Users\/|\b[A-Za-z]:[\\/]+Users[\\/]+)([A-Za-z0-9._-]+)/g, group: 1 },
];
