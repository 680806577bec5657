/**
 * The token estimate used everywhere a size is shown in tokens. Logs record the provider's own
 * counts only per model call (`usage`); sizes of messages and prefixes are estimated.
 */

/** How token counts are estimated (stated wherever an estimate is shown). */
export const TOKEN_METHOD = 'estimated as ⌈characters of the derived message JSON ÷ 4⌉ (no tokenizer)';

/** The token estimate for a size in characters of derived-message JSON. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}
