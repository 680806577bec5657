/**
 * The token estimate, the one place it is made: the engine's replace inspector and context
 * curve, and the page's curve labels, all state it with {@link TOKEN_METHOD}.
 */

/** How token counts are estimated (stated in the UI). */
export const TOKEN_METHOD = 'estimated as ⌈characters of the derived message JSON ÷ 4⌉ (no tokenizer)';

/** The token estimate for a size in characters of derived-message JSON. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}
