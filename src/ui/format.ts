/** Small display helpers shared by the panels. Pure; no React. */
import { REPLACEMENT_KIND_LABEL } from '../protocol/protocol';
import type { EventState, Family, Severity } from '../protocol/protocol';

const integer = new Intl.NumberFormat('en-US');

export const formatCount = (n: number): string => integer.format(n);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Time since the session's first event: `+0.250s`, `+1:02.5`, `+1:02:03`. */
export function formatRelativeTime(time: number | null, origin: number | null): string {
  if (time === null || origin === null) return '';
  const ms = time - origin;
  const sign = ms < 0 ? '−' : '+';
  const abs = Math.abs(ms);
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(3)}s`;
  const totalSeconds = Math.floor(abs / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = ((abs % 60_000) / 1000).toFixed(1).padStart(4, '0');
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, '0')}:${s.slice(0, 2)}` : `${sign}${m}:${s}`;
}

export function formatTurnStep(turn: number | null, step: number | null): string {
  if (turn === null) return '';
  return step === null ? `t${turn}` : `t${turn}·s${step}`;
}

/** A glyph and a word for each event state, so colour is never the only signal. */
export const STATE_LABEL: Record<EventState, { glyph: string; text: string }> = {
  current: { glyph: '●', text: 'current' },
  shadowed: { glyph: '⊘', text: 'shadowed' },
  'log-only': { glyph: '·', text: 'log only' },
  future: { glyph: '○', text: 'future' },
  rejected: { glyph: '✕', text: 'rejected' },
  pending: { glyph: '…', text: 'never folded' },
};

/** What the UI calls each kind of replacement (from the core: search matches these words too). */
export { REPLACEMENT_KIND_LABEL };

export const SEVERITY_LABEL: Record<Severity, { glyph: string; text: string }> = {
  error: { glyph: '✕', text: 'error' },
  warning: { glyph: '▲', text: 'warning' },
  info: { glyph: 'ℹ', text: 'info' },
};

export const familyClass = (family: Family): string => `fam-${family}`;

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Rates like "12.3 MB/s"; empty until there is a meaningful elapsed time. */
export function formatRate(amount: number, elapsedMs: number, unit: 'bytes' | 'events'): string {
  if (elapsedMs < 50) return '';
  const perSecond = (amount * 1000) / elapsedMs;
  return unit === 'bytes' ? `${formatBytes(Math.round(perSecond))}/s` : `${formatCount(Math.round(perSecond))} events/s`;
}

/** Estimated tokens of a size in characters, as the engine estimates them (it states how in `tokenMethod`). */
export { estimateTokens } from '../protocol/protocol';
