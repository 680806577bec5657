/**
 * The redactor: replaces what {@link REDACT_PATTERNS} find in strings by numbered markers
 * (`[REDACTED:email-1]`, `/home/[REDACTED:home-path-1]/…`) and counts what it replaced.
 *
 * Why numbered markers: the fold compares payloads (a tool result's pruned copy must equal its
 * original except for the content, surface.md §3.2 T3). One redactor over a whole log maps equal
 * values to equal markers and different values to different markers, so every equality and
 * inequality the fold can see between two strings holding secrets is kept, and with it the fold.
 * The numbers say which values were the same; the report holds counts only, never a value.
 */
import { REDACT_KINDS, REDACT_PATTERNS } from './patterns';
import type { RedactKind } from './patterns';

/** What one kind of value was replaced: how often, and how many different values. */
export interface RedactCount {
  occurrences: number;
  distinct: number;
}

/** What a redaction replaced: counts per kind, never the values. */
export interface RedactReport {
  /** Per kind, only kinds that were found. */
  kinds: Partial<Record<RedactKind, RedactCount>>;
  /** All occurrences. */
  total: number;
  /** Events (and header) with at least one string changed. */
  records: number;
}

/** Replaces secrets, home-directory paths and e-mail addresses in strings, consistently across calls. */
export class Redactor {
  /** Marker of each value seen, per kind (kept so the same value always gets the same marker). */
  private readonly markers = new Map<RedactKind, Map<string, string>>();
  private readonly occurrences = new Map<RedactKind, number>();
  private records = 0;

  /**
   * The string with every match replaced.
   * @param count false to replace without counting (a value already counted elsewhere, such as
   *   the original of a pruned copy read again)
   */
  text(value: string, count = true): string {
    let out = value;
    for (const { kind, regex, group } of REDACT_PATTERNS) {
      regex.lastIndex = 0;
      if (!regex.test(out)) continue;
      regex.lastIndex = 0;
      out = out.replace(regex, (match: string, ...groups: unknown[]) => {
        const secret = group === 0 ? match : (groups[group - 1] as string);
        const marker = this.markerOf(kind, secret);
        if (count) this.occurrences.set(kind, (this.occurrences.get(kind) ?? 0) + 1);
        if (group === 0) return marker;
        const at = match.lastIndexOf(secret);
        return match.slice(0, at) + marker + match.slice(at + secret.length);
      });
    }
    return out;
  }

  /** Note that one record (an event, the header) had something replaced. */
  countRecord(): void {
    this.records += 1;
  }

  /** The counts so far. */
  report(): RedactReport {
    const kinds: Partial<Record<RedactKind, RedactCount>> = {};
    let total = 0;
    for (const kind of REDACT_KINDS) {
      const occurrences = this.occurrences.get(kind) ?? 0;
      if (occurrences === 0) continue;
      kinds[kind] = { occurrences, distinct: this.markers.get(kind)?.size ?? 0 };
      total += occurrences;
    }
    return { kinds, total, records: this.records };
  }

  private markerOf(kind: RedactKind, value: string): string {
    let known = this.markers.get(kind);
    if (!known) {
      known = new Map();
      this.markers.set(kind, known);
    }
    let marker = known.get(value);
    if (marker === undefined) {
      marker = `[REDACTED:${kind}-${known.size + 1}]`;
      known.set(value, marker);
    }
    return marker;
  }
}

/** The report as lines for a terminal or a text file (`kind: N occurrences, M different`). */
export function formatRedactReport(report: RedactReport): string {
  if (report.total === 0) return 'redacted nothing: no secret, home-directory path or e-mail address found\n';
  const lines = [
    `redacted ${report.total} value${report.total === 1 ? '' : 's'} in ${report.records} record${report.records === 1 ? '' : 's'}:`,
  ];
  for (const kind of REDACT_KINDS) {
    const c = report.kinds[kind];
    if (c) lines.push(`  ${kind}: ${c.occurrences} occurrence${c.occurrences === 1 ? '' : 's'}, ${c.distinct} different`);
  }
  return `${lines.join('\n')}\n`;
}
