/**
 * The web "Session log" export ZIP (log-format.md §8): `session.jsonl` for the root session and
 * `subagents/<id>/session.jsonl` per descendant. Each member is again input for container
 * detection; this module only extracts them, safely.
 *
 * fflate's `unzipSync` reads names and sizes from the central directory, so the exporter's
 * streaming layout (data-descriptor flag, zero sizes in the local headers) is handled. Its filter
 * sees every entry's declared sizes before anything is inflated, which is where the path and
 * decompression-bomb policy is applied. During inflation fflate writes into a buffer of exactly
 * the declared (already vetted) size, so a member that lies about its size cannot make us
 * allocate more. fflate then silently truncates, and it does not verify CRC-32 either, so we
 * check each extracted member's length and CRC-32 against the central directory ourselves.
 */
import { unzipSync } from 'fflate';
import type { UnzipFileInfo } from 'fflate';
import { crc32 } from './gzip';
import { MemoryLimitError } from '../util/budget';
import type { MemoryBudget } from '../util/budget';

/** Decompression-bomb limits. All sizes in bytes. */
export interface ZipLimits {
  /** Total declared uncompressed size of the extracted members (default 2 GiB). */
  maxTotalBytes?: number;
  /** Declared uncompressed size of one member (default 1 GiB). */
  maxMemberBytes?: number;
  /** Largest accepted uncompressed/compressed ratio (default 1000)... */
  maxRatio?: number;
  /** ...applied to members whose declared uncompressed size exceeds this (default 1 MiB). */
  ratioMinBytes?: number;
}

/** The defaults of `ZipLimits`. */
export const DEFAULT_ZIP_LIMITS: Readonly<Required<ZipLimits>> = {
  maxTotalBytes: 2 * 2 ** 30,
  maxMemberBytes: 2 ** 30,
  maxRatio: 1000,
  ratioMinBytes: 2 ** 20,
};

/** One extracted session log. */
export interface ZipMember {
  /** Member path inside the archive, e.g. `session.jsonl` or `subagents/<id>/session.jsonl`. */
  path: string;
  /** The member's bytes (logical JSONL text, or another container: detect again). */
  bytes: Uint8Array;
}

/** A problem with the archive or one of its members. */
export interface ZipFinding {
  severity: 'error' | 'warning';
  /** `zip/corrupt`, `zip/corrupt-member`, `zip/unsafe-path`, `zip/bomb`, `zip/duplicate`, `zip/unsupported-compression`, `zip/no-session`. */
  rule: string;
  message: string;
  /** The member concerned, or null for the whole archive. */
  path: string | null;
}

/** `readExportZip` result. */
export interface ZipSessions {
  /** Root `session.jsonl` first, then `subagents/<id>/session.jsonl`, then other `*.jsonl`; archive order within each group. */
  members: ZipMember[];
  findings: ZipFinding[];
  /**
   * Members not inflated because their declared size did not fit the memory budget (in the
   * order of `members`); the caller reports them. Empty without a budget.
   */
  overBudget: { path: string; error: MemoryLimitError }[];
}

/** The root session log's member path. */
export const ROOT_SESSION_PATH = 'session.jsonl';

/**
 * Why a member name is unsafe to treat as a path, or null when it is fine: absolute (leading
 * `/` or a drive letter), a `..` segment, a backslash (a separator on Windows), or NUL.
 */
export function unsafeZipPathReason(name: string): string | null {
  if (name.includes('\0')) return 'contains a NUL character';
  if (name.includes('\\')) return 'contains a backslash';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is absolute';
  if (name.split('/').includes('..')) return 'has a ".." segment';
  return null;
}

/** 0 = root session, 1 = subagent session, 2 = any other `*.jsonl`. */
function memberGroup(name: string): 0 | 1 | 2 {
  if (name === ROOT_SESSION_PATH) return 0;
  const parts = name.split('/');
  if (parts.length === 3 && parts[0] === 'subagents' && parts[1] !== '' && parts[2] === 'session.jsonl') return 1;
  return 2;
}

interface Candidate {
  /** Position in the central directory, which is the order fflate's filter sees entries in. */
  index: number;
  info: UnzipFileInfo;
  group: 0 | 1 | 2;
}

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
}

function u64(bytes: Uint8Array, at: number): number {
  return u32(bytes, at) + u32(bytes, at + 4) * 2 ** 32;
}

/**
 * The CRC-32 of every central-directory entry, in directory order (the order fflate's filter
 * sees), or null when the directory cannot be walked. The walk is fflate's own (entry count
 * from the end record's "entries on this disk", each entry's length from its name, extra and
 * comment fields, no signature check), so entry `i` here is the entry fflate reported as `i`
 * even when a damaged field makes later entries garbage.
 */
function centralDirectoryCrcs(bytes: Uint8Array): number[] | null {
  let eocd = bytes.length - 22;
  while (eocd >= 0 && u32(bytes, eocd) !== 0x06054b50) {
    if (bytes.length - eocd > 22 + 0xffff) return null;
    eocd -= 1;
  }
  if (eocd < 0) return null;
  let count = u16(bytes, eocd + 8);
  let at = u32(bytes, eocd + 16);
  if (u32(bytes, eocd - 20) === 0x07064b50) {
    // ZIP64: the real count and offset live in the ZIP64 end record.
    const record = u64(bytes, eocd - 12);
    if (u32(bytes, record) !== 0x06064b50) return null;
    count = u64(bytes, record + 32);
    at = u64(bytes, record + 48);
  }
  const crcs: number[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length) return null;
    crcs.push(u32(bytes, at + 16));
    at += 46 + u16(bytes, at + 28) + u16(bytes, at + 30) + u16(bytes, at + 32);
  }
  return crcs;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Extract the session logs of an export ZIP. Never throws for bad input: unreadable archives,
 * unsafe names, bombs and damaged members become findings, and the remaining members are
 * still returned.
 *
 * @param budget - when given, a member is inflated only if its declared size fits the budget
 *   (after the members before it in output order); the inflated members are then held by it.
 */
export function readExportZip(bytes: Uint8Array, limits: ZipLimits = {}, budget: MemoryBudget | null = null): ZipSessions {
  const limit = { ...DEFAULT_ZIP_LIMITS, ...limits };
  const findings: ZipFinding[] = [];
  const refuse = (rule: string, path: string, why: string): void => {
    findings.push({ severity: 'error', rule, message: `refused ZIP member ${JSON.stringify(path)}: ${why}`, path });
  };

  // Pass 1: list the central directory without inflating anything.
  const entries: UnzipFileInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (info) => {
        entries.push({ ...info });
        return false;
      },
    });
  } catch (error) {
    findings.push({ severity: 'error', rule: 'zip/corrupt', message: `not a readable ZIP archive: ${describe(error)}`, path: null });
    return { members: [], findings, overBudget: [] };
  }

  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const [index, info] of entries.entries()) {
    const { name } = info;
    const unsafe = unsafeZipPathReason(name);
    if (unsafe !== null) {
      refuse('zip/unsafe-path', name, `its path ${unsafe}`);
    } else if (!name.endsWith('.jsonl')) {
      // Media and directories: not session logs, never inflated.
    } else if (seen.has(name)) {
      refuse('zip/duplicate', name, 'a second member with this name (the first one is used)');
    } else if (info.compression !== 0 && info.compression !== 8) {
      seen.add(name);
      refuse('zip/unsupported-compression', name, `compression method ${info.compression} (only stored and deflate are supported)`);
    } else {
      seen.add(name);
      candidates.push({ index, info, group: memberGroup(name) });
    }
  }

  // Budget the total in output order, so the root session is never crowded out by others.
  candidates.sort((a, b) => a.group - b.group || a.index - b.index);
  const accepted: Candidate[] = [];
  const overBudget: ZipSessions['overBudget'] = [];
  let total = 0;
  for (const candidate of candidates) {
    const { name, size, originalSize } = candidate.info;
    if (originalSize > limit.maxMemberBytes) {
      refuse(
        'zip/bomb',
        name,
        `declared uncompressed size ${originalSize} bytes exceeds the per-member limit of ${limit.maxMemberBytes} bytes`,
      );
    } else if (originalSize > limit.ratioMinBytes && originalSize > size * limit.maxRatio) {
      const ratio = size === 0 ? 'unbounded' : `${Math.round(originalSize / size)}:1`;
      refuse(
        'zip/bomb',
        name,
        `compression ratio ${ratio} (${originalSize} bytes from ${size}) exceeds the limit of ${limit.maxRatio}:1 for members over ${limit.ratioMinBytes} bytes`,
      );
    } else if (total + originalSize > limit.maxTotalBytes) {
      refuse(
        'zip/bomb',
        name,
        `its ${originalSize} bytes would bring the total uncompressed size over the limit of ${limit.maxTotalBytes} bytes`,
      );
    } else if (budget !== null && !budget.fits(total + originalSize)) {
      // fflate allocates each member's declared size: check before anything is inflated.
      overBudget.push({ path: name, error: new MemoryLimitError(budget.held + total + originalSize, budget.limit) });
    } else {
      total += originalSize;
      accepted.push(candidate);
    }
  }

  budget?.hold(total);

  // Pass 2: inflate the accepted members. If one is damaged fflate throws for the whole call,
  // so retry member by member to keep the others and name the damaged one.
  const inflated = new Map<number, Uint8Array>();
  const extract = (wanted: ReadonlySet<number>): void => {
    let index = 0;
    const files = unzipSync(bytes, { filter: () => wanted.has(index++) });
    for (const candidate of accepted) {
      const data = wanted.has(candidate.index) ? files[candidate.info.name] : undefined;
      if (data !== undefined) inflated.set(candidate.index, data);
    }
  };
  if (accepted.length > 0) {
    try {
      extract(new Set(accepted.map((candidate) => candidate.index)));
    } catch {
      for (const candidate of accepted) {
        try {
          extract(new Set([candidate.index]));
        } catch (error) {
          findings.push({
            severity: 'error',
            rule: 'zip/corrupt-member',
            message: `ZIP member ${JSON.stringify(candidate.info.name)} could not be decompressed: ${describe(error)}`,
            path: candidate.info.name,
          });
        }
      }
    }
  }

  const crcs = centralDirectoryCrcs(bytes);
  const members: ZipMember[] = [];
  for (const candidate of accepted) {
    const data = inflated.get(candidate.index);
    if (data === undefined) continue;
    const { name, originalSize } = candidate.info;
    if (data.length !== originalSize) {
      findings.push({
        severity: 'error',
        rule: 'zip/corrupt-member',
        message: `ZIP member ${JSON.stringify(name)} inflated to ${data.length} bytes but the central directory declares ${originalSize}`,
        path: name,
      });
      continue;
    }
    const expectedCrc = crcs?.length === entries.length ? crcs[candidate.index] : undefined;
    if (expectedCrc === undefined || crc32(data) !== expectedCrc) {
      findings.push({
        severity: 'error',
        rule: 'zip/corrupt-member',
        message:
          expectedCrc === undefined
            ? `ZIP member ${JSON.stringify(name)} cannot be verified: the central directory holding its CRC-32 is damaged`
            : `ZIP member ${JSON.stringify(name)} failed its CRC-32 check (damaged, or larger than its declared ${originalSize} bytes)`,
        path: name,
      });
      continue;
    }
    members.push({ path: name, bytes: data });
  }

  if (members[0]?.path !== ROOT_SESSION_PATH) {
    const present = entries.some((info) => info.name === ROOT_SESSION_PATH);
    findings.push({
      severity: 'error',
      rule: 'zip/no-session',
      message: present ? 'ZIP has no usable session.jsonl: the member was refused or damaged' : 'ZIP has no session.jsonl',
      path: null,
    });
  }
  return { members, findings, overBudget };
}
