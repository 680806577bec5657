/**
 * Header checks: the loader's header-line rules H1–H5 (log-format.md §2.2) and the session
 * header checks run when the session object is built (log-format.md §5.3).
 */
import type { Diagnostic } from '../model';
import { diagnostic, isNonNegativeSafeInteger, isRecord } from './check';
import { isLosslessJson } from './lossless';

/** What the header line yields for the loader view. */
export interface HeaderLineResult {
  /**
   * The session header as upstream copies it (known keys only), or `null` when the line is
   * missing, unparsable, version-gated or not a header (H1–H4). An H5 refusal still returns it.
   */
  header: Record<string, unknown> | null;
  /** The header's `id` when it is a string, even when a rule failed; else `null`. */
  sessionId: string | null;
  /** At most one finding: the first rule that failed (upstream throws on it). */
  findings: Diagnostic[];
}

/** `SESSION_FORMAT_VERSION`: the only log format this harness reads. */
export const SESSION_FORMAT_VERSION = 0;

/** The header keys upstream copies into the session header; any other key is ignored. */
const HEADER_KEYS = [
  'version',
  'id',
  'createdAt',
  'cwd',
  'parentSession',
  'seedLength',
  'origin',
  'delegationDepth',
  'agentPreset',
] as const;

/** A non-negative safe integer that is not `-0` (H4 rejects `-0` where §5.3 would not). */
function isCount(value: unknown): boolean {
  return isNonNegativeSafeInteger(value) && !Object.is(value, -0);
}

/** Upstream's exact H4 message (log-format.md §2.2). */
export const NOT_HEADER = 'corrupt session log: first line is not a session header';

function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return `${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
}

/**
 * The first H4 requirement the parsed first line fails, naming the field and what it holds, or
 * null when it is a header. The order is the order of the requirements in log-format.md §2.2.
 */
export function notHeaderReason(record: Record<string, unknown> | null): string | null {
  if (record === null || Array.isArray(record)) return 'it is not a JSON object';
  if (record.type !== 'session') return `"type" is ${describeValue(record.type)}, not "session"`;
  if (typeof record.version !== 'number') return `"version" is ${describeValue(record.version)}, not a number`;
  if (typeof record.id !== 'string') return `"id" is ${describeValue(record.id)}, not a string`;
  for (const key of ['createdAt', 'delegationDepth']) {
    const value = record[key];
    if (!isCount(value)) {
      const shown = Object.is(value, -0) ? '-0' : describeValue(value);
      return `"${key}" is ${shown}: it must be a non-negative safe integer`;
    }
  }
  if (record.origin !== undefined && record.origin !== 'subagent')
    return `"origin" is ${describeValue(record.origin)}: it may only be "subagent"`;
  if (record.agentPreset !== undefined && typeof record.agentPreset !== 'string')
    return `"agentPreset" is ${describeValue(record.agentPreset)}, not a string`;
  return null;
}

function headerFailure(rule: string, message: string): Diagnostic {
  // Every header rule makes upstream refuse the log, so each is an error; the header has no seq.
  return diagnostic('error', rule, null, 1, message);
}

/**
 * Apply the header-line rules H1–H5 of log-format.md §2.2, in order.
 *
 * @param text the first line of the logical text without its LF, or `null` when there is none
 * @param rawHasLf whether the raw logical text contains any LF at all (H1)
 * @returns the copied header, the session id and the first failing rule, if any
 */
export function checkHeaderLine(text: string | null, rawHasLf: boolean): HeaderLineResult {
  if (!rawHasLf || text === null) {
    const message = 'empty or header-less session log';
    return { header: null, sessionId: null, findings: [headerFailure('loader/header-empty', message)] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const message = 'corrupt session log: header line is not valid JSON';
    return { header: null, sessionId: null, findings: [headerFailure('loader/header-json', message)] };
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  const id = record?.id;
  const sessionId = typeof id === 'string' ? id : null;
  const fail = (rule: string, message: string): HeaderLineResult => ({
    header: null,
    sessionId,
    findings: [headerFailure(rule, message)],
  });
  // H3 runs before any shape check, even when `type` is not "session": a newer harness may
  // have changed the header's shape, and the user must be told to upgrade rather than that the
  // log is corrupt.
  const version = record?.version;
  if (typeof version === 'number' && version !== SESSION_FORMAT_VERSION) {
    const shown = typeof id === 'string' ? id : String(id);
    const message =
      version > SESSION_FORMAT_VERSION
        ? `session "${shown}" uses log format v${version}, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it`
        : `session "${shown}" uses log format v${version}, older than the supported v0, and this build ships no upgrade path for it`;
    return fail('loader/version', message);
  }
  const why = notHeaderReason(record);
  if (why !== null || record === null) {
    // Upstream's message names no field; the reason after it does, so a fix is obvious.
    return fail('loader/not-header', `${NOT_HEADER} (${why ?? 'it is not a JSON object'})`);
  }
  const header: Record<string, unknown> = {};
  for (const key of HEADER_KEYS) if (record[key] !== undefined) header[key] = record[key];
  if (Object.hasOwn(record, 'sandboxMode') || Object.hasOwn(record, 'approvalPolicy')) {
    return {
      header,
      sessionId,
      findings: [headerFailure('loader/retired-policy', 'session header uses retired policy baseline fields')],
    };
  }
  return { header, sessionId, findings: [] };
}

/** How the session object is being built (log-format.md §5). */
export type SessionBuildMode = 'create' | 'restore';

/**
 * Absolute per Node's `path.isAbsolute` on either host family: a POSIX leading `/`, or a
 * Windows drive (`C:\`, `C:/`) or UNC (`\\server`) path. We cannot know the writer's host, so
 * both are accepted rather than refusing a log that was valid where it was written.
 */
function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(path);
}

/**
 * The session header checks of log-format.md §5.3, in order (rule `seed/header`).
 *
 * Upstream throws on the first failure; so does this, with one exception: a non-absolute `cwd`
 * that is a normalised fixture placeholder (`{{cwd}}…`) is reported as a warning and checking
 * continues, because such fixtures are valid logs whose path was redacted for snapshots. Any
 * other non-absolute `cwd` is an error, as upstream would refuse it.
 *
 * @param header the session header (for example `HeaderLineResult.header`)
 * @param sessionId the id the session is being built under
 * @param mode `create` applies the lossless-JSON check first; `restore` does not
 * @returns the findings; at most one has severity `error` and it is the one upstream throws
 */
export function checkSessionHeader(header: unknown, sessionId: string, mode: SessionBuildMode): Diagnostic[] {
  const found: Diagnostic[] = [];
  const fail = (message: string): Diagnostic[] => {
    found.push(diagnostic('error', 'seed/header', null, 1, message));
    return found;
  };
  if (mode === 'create' && !isLosslessJson(header)) return fail('session header is not losslessly JSON-serializable');
  if (!isRecord(header) || !isPlainPrototype(header)) return fail('session header is not a plain JSON record');
  const h = header;
  if (h.version !== SESSION_FORMAT_VERSION) return fail(`session header version must be 0, got ${String(h.version)}`);
  if (h.id !== sessionId) {
    return fail(`session header id "${String(h.id)}" does not match session id "${sessionId}"`);
  }
  if (!isNonNegativeSafeInteger(h.createdAt)) return fail('session header createdAt must be a non-negative safe integer');
  if (h.cwd !== undefined) {
    if (typeof h.cwd !== 'string') return fail('session header cwd must be a string');
    if (!isAbsolutePath(h.cwd)) {
      const message = `session header cwd must be an absolute path, got "${h.cwd}"`;
      if (!h.cwd.startsWith('{{')) return fail(message);
      found.push(diagnostic('warning', 'seed/header', null, 1, message));
    }
  }
  if (h.parentSession !== undefined && typeof h.parentSession !== 'string') {
    return fail('session header parentSession must be a string');
  }
  if (h.seedLength !== undefined && !isNonNegativeSafeInteger(h.seedLength)) {
    return fail('session header seedLength must be a non-negative safe integer');
  }
  if (h.origin !== undefined && h.origin !== 'subagent') return fail('session header origin must be "subagent"');
  if (h.delegationDepth !== undefined && !isNonNegativeSafeInteger(h.delegationDepth)) {
    return fail('session header delegationDepth must be a non-negative safe integer');
  }
  if (h.agentPreset !== undefined && typeof h.agentPreset !== 'string') {
    return fail('session header agentPreset must be a string');
  }
  return found;
}

function isPlainPrototype(record: object): boolean {
  const proto: unknown = Object.getPrototypeOf(record);
  return proto === Object.prototype || proto === null;
}
