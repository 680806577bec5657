/**
 * The self-contained HTML export: the single-file viewer (`dist/standalone.html`, built by
 * `vite.standalone.config.ts`) with one session embedded, gzip-compressed and base64-encoded in
 * a data block the page decodes with the core's own gzip decoder. Data blocks
 * (`<script type="application/…">`) are never executed, so the page's hash-based
 * Content-Security-Policy stays as the build wrote it.
 */
import { gzipSync } from 'fflate';
import type { SessionAnalysis } from '../analyze/session';
import { encodeBase64 } from '../util/base64';
import { clampStep, exportLogText } from './log';
import type { ExportLogOptions } from './log';

/** Where the template takes the session; the built viewer holds this comment exactly once. */
export const SESSION_SLOT = '<!--surface-lens-session-->';
/** Id of the data block holding the base64 gzip of the session JSONL. */
export const SESSION_DATA_ID = 'surface-lens-session';
/** Id of the data block holding {@link EmbeddedMeta} as JSON. */
export const SESSION_META_ID = 'surface-lens-meta';

/** What the page needs besides the bytes: the file name and where to open. */
export interface EmbeddedMeta {
  /** File name to show (the exported log's). */
  name: string;
  /** The step to open at, or null for the end. */
  step: number | null;
  /** The event to select, or null. */
  seq: number | null;
}

/** JSON fit for a `<script>` data block: `<` escaped, so no text in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The viewer page with `session` embedded.
 * @throws Error when `template` is not the built viewer (no slot, or more than one)
 */
export function embedSession(template: string, jsonl: string, meta: EmbeddedMeta): string {
  const at = template.indexOf(SESSION_SLOT);
  if (at < 0 || template.indexOf(SESSION_SLOT, at + 1) >= 0)
    throw new Error('the viewer template has no single session slot: is it the built standalone.html?');
  const gzip = gzipSync(new TextEncoder().encode(jsonl), { level: 9, mtime: 0 });
  const blocks =
    `<script type="application/json" id="${SESSION_META_ID}">${scriptJson(meta)}</script>\n` +
    `<script type="application/gzip+base64" id="${SESSION_DATA_ID}">${encodeBase64(gzip)}</script>`;
  return template.slice(0, at) + blocks + template.slice(at + SESSION_SLOT.length);
}

/** Options of {@link standaloneHtml}. */
export interface StandaloneOptions extends ExportLogOptions {
  /** The file name shown in the page. */
  name: string;
  /** The event to select; kept only when it is among the events written. */
  seq?: number | null | undefined;
  /** The log already written with the same options (so a redactor counts each value once). */
  jsonl?: string | undefined;
}

/**
 * The whole session (or its first `step` events) in the viewer page, opening at that step. The
 * log embedded is {@link exportLogText}'s, so the page shows exactly the fold of what it holds.
 */
export function standaloneHtml(template: string, session: SessionAnalysis, options: StandaloneOptions): string {
  const step = clampStep(session, options.step);
  const seq = options.seq ?? null;
  const kept = seq !== null && seq >= session.baseSeq && seq < session.baseSeq + step ? seq : null;
  const jsonl = options.jsonl ?? exportLogText(session, options);
  return embedSession(template, jsonl, { name: options.name, step: options.step === undefined ? null : step, seq: kept });
}
