/** Small display helpers shared by the panels. Pure; no React. */
import { REPLACEMENT_KIND_LABEL } from '../protocol/protocol';
import type { EventState, Family, Severity } from '../protocol/protocol';

const integer = new Intl.NumberFormat('en-US');

export const formatCount = (n: number): string => integer.format(n);

export function formatBytes(bytes: number): string {
  // Binary units, named as such: 1 MiB is 1,048,576 bytes.
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * Elapsed time from the session's earliest event (so never negative): `+0.250s`, `+1:02.5`,
 * `+596:17:48` (hours are not wrapped into days, and nothing is cut: the column fits it).
 */
export function formatElapsed(time: number | null, origin: number | null): string {
  if (time === null || origin === null) return '';
  return formatRelativeTime(Math.max(time, origin), origin);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The local calendar date of an epoch time: `2026-08-01`. */
export function formatLocalDate(time: number): string {
  const d = new Date(time);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Local wall-clock time `14:03:07.250`, preceded by the date when it differs from the previous
 * shown time's date (or there is none), so a date is written only where it changes.
 */
export function formatWallClock(time: number | null, previous: number | null): string {
  if (time === null || !Number.isFinite(time) || Math.abs(time) > 8.64e15) return '';
  const d = new Date(time);
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  const date = formatLocalDate(time);
  return previous === null || !Number.isFinite(previous) || formatLocalDate(previous) !== date ? `${date} ${clock}` : clock;
}

/** The ISO 8601 form of an epoch time, for a tooltip; empty when it is not a representable time. */
export function formatIsoTime(time: number | null): string {
  if (time === null || !Number.isFinite(time) || Math.abs(time) > 8.64e15) return '';
  return new Date(time).toISOString();
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
