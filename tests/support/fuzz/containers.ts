/**
 * Containers for fuzz cases and their damage: multi-frame Zstandard (frames dropped,
 * duplicated, swapped, bytes flipped, checksums corrupted, the last frame cut, tails appended),
 * gzip (single or concatenated members; flips, truncation, trailing bytes) and export ZIPs
 * (members renamed, duplicated, bytes corrupted, the archive truncated).
 *
 * Every wrapper also says what a conforming decoder must make of the result ({@link Expect}),
 * derived from how the bytes were built, not from the code under test.
 */
import { gzipSync, zipSync } from 'fflate';
import type { Rng } from '../../../src/core/gen/rng';
import { concatBytes, zstdFrame } from '../zstd-frames';
import { BYTE_MUTATORS, mutateOnce } from './mutate';

/**
 * What the analyzer must produce for one session path.
 * - `exact`: the logical text is exactly `text`. `form` is `auto` when §1.1 text detection
 *   applies (raw, gzip, ZIP member), `jsonl` when the container fixes it (Zstandard).
 *   `unlessDamaged` skips the comparison when the decode error's message matches (the
 *   container was refused as a whole).
 * - `prefix`: the logical text is a prefix of `text` (JSONL): its events are a prefix of
 *   `text`'s events. `unlessTorn`: skip when a torn final Zstandard frame was decoded (its
 *   bytes may be damaged, and no checksum covers it).
 * - `decode-zstd`: decode `bytes` with fzstd at check time and compare when the analyzer saw no
 *   damage.
 * - `none`: no oracle (only no-crash and internal consistency).
 */
export type Expect =
  | { kind: 'exact'; text: string; form: 'auto' | 'jsonl'; unlessDamaged?: RegExp }
  | { kind: 'prefix'; text: string; unlessTorn: boolean }
  | { kind: 'decode-zstd'; bytes: Uint8Array }
  | { kind: 'none' };

/** A wrapped input. */
export interface Wrapped {
  name: string;
  bytes: Uint8Array;
  /** The expectation for a session path (`name`, or `name!member` for ZIP members). */
  expect: (path: string) => Expect;
  /** Paths that must come out as sessions (ZIP members that are present and acceptable). */
  required: string[];
  notes: string[];
}

const dec = new TextDecoder('utf-8', { ignoreBOM: true });
const enc = new TextEncoder();
const text = (bytes: Uint8Array): string => dec.decode(bytes);
const NONE: Expect = { kind: 'none' };

type Magic = 'zip' | 'zstd' | 'gzip' | null;

/** The container magic at the start of `bytes` (log-format.md §1.1 rows 1–3), by the table. */
function magicOf(bytes: Uint8Array): Magic {
  const at = (m: readonly number[]): boolean => bytes.length >= m.length && m.every((b, i) => bytes[i] === b);
  if (at([0x50, 0x4b, 0x03, 0x04]) || at([0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (at([0x28, 0xb5, 0x2f, 0xfd])) return 'zstd';
  if (at([0x1f, 0x8b])) return 'gzip';
  return null;
}

/** Plain bytes, no container. */
export function wrapRaw(doc: Uint8Array, name: string): Wrapped {
  // Damage can (rarely) write a container magic at the start: then it is no longer plain text.
  const exact: Expect = magicOf(doc) !== null ? NONE : { kind: 'exact', text: text(doc), form: 'auto' };
  return { name, bytes: doc, expect: (path) => (path === name ? exact : NONE), required: [name], notes: [] };
}

/** Damage to the first bytes can remove the container's magic: then the input is plain text. */
export function checkMagic(w: Wrapped, kind: Magic): Wrapped {
  if (magicOf(w.bytes) === kind) return w;
  const raw = wrapRaw(w.bytes, w.name);
  return { ...raw, notes: [...w.notes, `the ${kind} magic is gone: plain text now`] };
}

// ------------------------------------------------------------------------------------------
// Zstandard
// ------------------------------------------------------------------------------------------

interface Frame {
  plain: Uint8Array;
  bytes: Uint8Array;
}

/** Cut points of the plaintext: the header line alone first (usually), then batches of lines; sometimes tiny frames. */
function frameCuts(doc: Uint8Array, rng: Rng): number[] {
  if (rng.chance(0.05)) {
    // Tiny frames regardless of lines: most lines cross several frames.
    const cuts = [0];
    const step = rng.int(16, 512);
    for (let at = step; at < doc.length; at += step) cuts.push(at);
    cuts.push(doc.length);
    return cuts;
  }
  const lfs: number[] = [];
  for (let i = 0; i < doc.length; i++) if (doc[i] === 0x0a) lfs.push(i + 1);
  const cuts: number[] = [0];
  let lf = 0;
  if (lfs.length > 0 && rng.chance(0.85)) {
    cuts.push(lfs[0]!);
    lf = 1;
  }
  while (lf < lfs.length) {
    lf = Math.min(lfs.length, lf + rng.int(1, 200));
    let cut = lfs[lf - 1]!;
    const prev = cuts[cuts.length - 1]!;
    if (rng.chance(0.1) && cut - prev > 2) cut = rng.int(prev + 1, cut - 1); // a line crossing frames
    cuts.push(cut);
  }
  if (cuts[cuts.length - 1]! < doc.length) cuts.push(doc.length);
  return cuts;
}

async function buildFrames(doc: Uint8Array, rng: Rng, mode: 'raw' | 'compressed', checksum: boolean): Promise<Frame[]> {
  const cuts = frameCuts(doc, rng);
  const frames: Frame[] = [];
  for (let i = 1; i < cuts.length; i++) {
    const plain = doc.subarray(cuts[i - 1], cuts[i]);
    frames.push({ plain, bytes: await zstdFrame(plain, { mode, checksum, level: 1 }) });
  }
  if (frames.length === 0) frames.push({ plain: doc, bytes: await zstdFrame(doc, { mode, checksum }) });
  return frames;
}

const plainOf = (frames: readonly Frame[]): string => text(concatBytes(frames.map((f) => f.plain)));
const bytesOf = (frames: readonly Frame[]): Uint8Array => concatBytes(frames.map((f) => f.bytes));

/** A multi-frame Zstandard log of `doc`, maybe damaged. */
export async function wrapZstd(doc: Uint8Array, rng: Rng): Promise<Wrapped> {
  const name = 'x.jsonl.zstd';
  const mode = rng.chance(0.5) ? 'raw' : 'compressed';
  const checksum = rng.chance(0.9);
  let frames = await buildFrames(doc, rng, mode, checksum);
  const notes = [`zstd: ${frames.length} ${mode} frame(s)${checksum ? '' : ' without checksums'}`];
  const full = plainOf(frames);
  let expect: Expect = { kind: 'exact', text: full, form: 'jsonl' };
  let bytes = bytesOf(frames);
  if (rng.chance(0.6)) {
    const k = rng.int(0, frames.length - 1);
    const kind = rng.weighted<string>([
      ['drop', 2],
      ['duplicate', 2],
      ['swap', 2],
      ['checksum', checksum ? 3 : 0],
      ['cut-last', 3],
      ['truncate', 2],
      ['flip', 4],
      ['garbage-tail', 1],
      ['magic-tail', 1],
    ]);
    const start = bytesOf(frames.slice(0, k)).length;
    const frame = frames[k] as Frame;
    switch (kind) {
      case 'drop':
        frames = frames.filter((_, i) => i !== k);
        bytes = bytesOf(frames);
        expect = { kind: 'exact', text: plainOf(frames), form: 'jsonl' };
        break;
      case 'duplicate':
        frames = [...frames.slice(0, k + 1), frame, ...frames.slice(k + 1)];
        bytes = bytesOf(frames);
        expect = { kind: 'exact', text: plainOf(frames), form: 'jsonl' };
        break;
      case 'swap': {
        const j = rng.int(0, frames.length - 1);
        frames = frames.slice();
        frames[k] = frames[j] as Frame;
        frames[j] = frame;
        bytes = bytesOf(frames);
        expect = { kind: 'exact', text: plainOf(frames), form: 'jsonl' };
        break;
      }
      case 'checksum': {
        bytes = bytes.slice();
        const at = start + frame.bytes.length - 1 - rng.int(0, 3);
        bytes[at] = bytes[at]! ^ rng.int(1, 255);
        // Frames are verified one by one: everything before the damaged frame is kept.
        expect = { kind: 'exact', text: plainOf(frames.slice(0, k)), form: 'jsonl' };
        break;
      }
      case 'cut-last': {
        const last = frames[frames.length - 1] as Frame;
        const cut = bytes.length - last.bytes.length + rng.int(1, Math.max(1, last.bytes.length - 1));
        bytes = bytes.slice(0, cut);
        expect = { kind: 'prefix', text: full, unlessTorn: false };
        break;
      }
      case 'truncate':
        bytes = bytes.slice(0, rng.int(0, bytes.length - 1));
        expect = { kind: 'prefix', text: full, unlessTorn: false };
        break;
      case 'flip': {
        bytes = bytes.slice();
        const n = rng.int(1, 3);
        const at: number[] = [];
        for (let i = 0; i < n; i++) {
          at.push(start + rng.int(0, frame.bytes.length - 1));
          bytes[at[i]!] = bytes[at[i]!]! ^ (1 << rng.int(0, 7));
        }
        notes.push(`zstd: flipped bytes ${at.join(',')} (frame at ${start})`);
        // With checksums, damage inside complete frames is caught and what is kept is a prefix;
        // unless the frame descriptor itself was hit (it may clear the checksum flag).
        const descriptorHit = at.includes(start + 4);
        expect = checksum && !descriptorHit ? { kind: 'prefix', text: full, unlessTorn: true } : { kind: 'decode-zstd', bytes };
        break;
      }
      case 'garbage-tail': {
        const tail = new Uint8Array(rng.int(1, 20));
        for (let i = 0; i < tail.length; i++) tail[i] = rng.u32() & 0xff;
        if (tail[0] === 0x28) tail[0] = 0x29; // never a frame magic
        bytes = concatBytes([bytes, tail]);
        break;
      }
      default: {
        // A frame magic and a few random bytes: a torn frame of nonsense.
        const tail = new Uint8Array(rng.int(1, 24));
        for (let i = 0; i < tail.length; i++) tail[i] = rng.u32() & 0xff;
        bytes = concatBytes([bytes, Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd), tail]);
        expect = NONE;
        break;
      }
    }
    notes.push(`zstd damage: ${kind} (frame ${k})`);
  }
  const final = expect;
  return checkMagic({ name, bytes, expect: (path) => (path === name ? final : NONE), required: [name], notes }, 'zstd');
}

/** A packed fixture as-is, with byte damage. */
export function damageAsIs(bytes: Uint8Array, rng: Rng, notes: string[]): Uint8Array {
  let out = bytes;
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) {
    const m = mutateOnce(out, rng, BYTE_MUTATORS);
    if (!m) continue;
    out = m.bytes;
    notes.push(`${m.mutator}: ${m.note}`);
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// gzip
// ------------------------------------------------------------------------------------------

/** gzip of `doc` (sometimes two concatenated members), maybe damaged. */
export function wrapGzip(doc: Uint8Array, rng: Rng): Wrapped {
  const name = 'x.jsonl.gz';
  const notes: string[] = [];
  let bytes: Uint8Array;
  if (rng.chance(0.25) && doc.length > 2) {
    const cut = rng.int(1, doc.length - 1);
    bytes = concatBytes([gzipSync(doc.subarray(0, cut), { level: 6 }), gzipSync(doc.subarray(cut), { level: 1 })]);
    notes.push(`gzip: two members, split at ${cut}`);
  } else {
    bytes = gzipSync(doc, { level: rng.pick([0, 1, 6, 9] as const) });
    notes.push('gzip: one member');
  }
  let expect: Expect = { kind: 'exact', text: text(doc), form: 'auto' };
  if (rng.chance(0.4)) {
    const kind = rng.pick(['flip', 'truncate', 'trailing']);
    bytes = bytes.slice();
    if (kind === 'flip') {
      for (let i = rng.int(1, 3); i > 0; i--) {
        const at = rng.int(0, bytes.length - 1);
        bytes[at] = bytes[at]! ^ (1 << rng.int(0, 7));
      }
    } else if (kind === 'truncate') {
      bytes = bytes.slice(0, rng.int(2, bytes.length - 1));
    } else {
      const tail = new Uint8Array(rng.int(1, 40));
      for (let i = 0; i < tail.length; i++) tail[i] = rng.u32() & 0xff;
      bytes = concatBytes([bytes, tail]);
    }
    // CRC-32 and ISIZE are checked: the input either decodes exactly or is refused whole.
    expect = { kind: 'exact', text: text(doc), form: 'auto', unlessDamaged: /^gzip: / };
    notes.push(`gzip damage: ${kind}`);
  }
  const final = expect;
  return checkMagic({ name, bytes, expect: (path) => (path === name ? final : NONE), required: [name], notes }, 'gzip');
}

// ------------------------------------------------------------------------------------------
// ZIP
// ------------------------------------------------------------------------------------------

/** Why a member name would be refused as a path (the export reader's documented policy). */
function unsafeName(name: string): boolean {
  return name.includes('\0') || name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..');
}

const RENAMES = [
  'Session.jsonl',
  'session.jsonl.txt',
  '../session.jsonl',
  '/session.jsonl',
  'C:/session.jsonl',
  'a\\session.jsonl',
  'session.json',
  'x/session.jsonl',
  'subagents/z9/session.jsonl',
  'subagents//session.jsonl',
  'subagents/a/b/session.jsonl',
  'notes.jsonl',
  'sé/session.jsonl',
  'session.jsonl/',
  'media/session.jsonl',
];

/** An export ZIP holding `doc` as `session.jsonl` plus companions and a media file, maybe damaged. */
export function wrapZip(doc: Uint8Array, companions: readonly { path: string; text: string }[], rng: Rng): Wrapped {
  const name = 'x.zip';
  const notes: string[] = [];
  // Member name -> content, in archive order.
  let entries: [string, Uint8Array][] = [['session.jsonl', doc]];
  for (const c of companions) entries.push([c.path, enc.encode(c.text)]);
  if (rng.chance(0.3)) entries.push([`media/${rng.alnum(8)}.png`, Uint8Array.from({ length: rng.int(1, 400) }, () => rng.u32() & 0xff)]);
  if (rng.chance(0.15)) entries.push(['sessiom.jsonl', enc.encode(companions[0]?.text ?? '')]); // a decoy, same length as the root
  if (rng.chance(0.3)) {
    // Shuffle the archive order.
    entries = entries
      .map((e) => [rng.next(), e] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, e]) => e);
  }
  if (rng.chance(0.25)) {
    const i = rng.int(0, entries.length - 1);
    const to = rng.pick(RENAMES);
    const from = (entries[i] as [string, Uint8Array])[0];
    if (!entries.some(([n]) => n === to)) {
      (entries[i] as [string, Uint8Array])[0] = to;
      notes.push(`zip: rename ${JSON.stringify(from)} -> ${JSON.stringify(to)}`);
    }
  }
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [n, data] of entries) files[n] = [data, { level: rng.chance(0.3) ? 0 : 6 }];
  let bytes: Uint8Array = zipSync(files);
  notes.unshift(`zip: ${entries.map(([n]) => n).join(', ')}`);

  // Same-length names can be made duplicates by patching the name bytes in place.
  let names = entries.map(([n]) => n);
  if (rng.chance(0.2)) {
    const pairs: [number, number][] = [];
    for (let a = 0; a < names.length; a++) {
      for (let b = 0; b < names.length; b++) {
        if (a !== b && (names[a] as string).length === (names[b] as string).length && (names[a] as string).endsWith('.jsonl'))
          pairs.push([a, b]);
      }
    }
    if (pairs.length > 0) {
      const [a, b] = rng.pick(pairs);
      const target = names[a] as string;
      const victim = names[b] as string;
      bytes = renameMember(bytes, enc.encode(victim), enc.encode(target));
      names = names.map((n) => (n === victim ? target : n));
      notes.push(`zip: member ${JSON.stringify(victim)} renamed in place to duplicate ${JSON.stringify(target)}`);
    }
  }

  // Expectations: the first member of each safe *.jsonl name, exactly.
  const expected = new Map<string, Expect>();
  for (let i = 0; i < names.length; i++) {
    const n = names[i] as string;
    if (!n.endsWith('.jsonl') || unsafeName(n) || expected.has(`${name}!${n}`)) continue;
    expected.set(`${name}!${n}`, { kind: 'exact', text: text((entries[i] as [string, Uint8Array])[1]), form: 'auto' });
  }
  let required = [...expected.keys()];
  if (rng.chance(0.35)) {
    const kind = rng.pick(['flip', 'truncate', 'flip-many']);
    bytes = bytes.slice();
    if (kind === 'truncate') {
      bytes = bytes.slice(0, rng.int(0, bytes.length - 1));
    } else {
      for (let i = kind === 'flip' ? rng.int(1, 2) : rng.int(3, 30); i > 0; i--) {
        const at = rng.int(0, bytes.length - 1);
        bytes[at] = bytes[at]! ^ (1 << rng.int(0, 7));
      }
    }
    // CRC-32 and sizes are checked per member: a member that comes out is intact. Names may
    // have been damaged too, so nothing is required, and a duplicated name may now resolve to
    // either copy.
    required = [];
    for (const n of names) if (names.indexOf(n) !== names.lastIndexOf(n)) expected.delete(`${name}!${n}`);
    notes.push(`zip damage: ${kind}`);
  }
  return checkMagic({ name, bytes, expect: (path) => expected.get(path) ?? NONE, required, notes }, 'zip');
}

const u16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number): number => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;

/** Rename every member called `from` to `to` (same length) in the central directory and local headers. */
function renameMember(bytes: Uint8Array, from: Uint8Array, to: Uint8Array): Uint8Array {
  const out = bytes.slice();
  const is = (at: number): boolean => from.every((b, i) => out[at + i] === b);
  let eocd = out.length - 22;
  while (eocd >= 0 && u32(out, eocd) !== 0x06054b50) eocd -= 1;
  if (eocd < 0) return out;
  let at = u32(out, eocd + 16);
  for (let n = u16(out, eocd + 10); n > 0 && u32(out, at) === 0x02014b50; n--) {
    const nameLength = u16(out, at + 28);
    const local = u32(out, at + 42);
    if (nameLength === from.length && is(at + 46)) {
      out.set(to, at + 46);
      if (u32(out, local) === 0x04034b50 && u16(out, local + 26) === from.length && is(local + 30)) out.set(to, local + 30);
    }
    at += 46 + nameLength + u16(out, at + 30) + u16(out, at + 32);
  }
  return out;
}

/** A packed ZIP fixture's members, for as-is damage (member path -> exact text). */
export function zipFixtureExpect(
  name: string,
  root: string,
  companions: readonly { path: string; text: string }[],
): (path: string) => Expect {
  const map = new Map<string, Expect>();
  map.set(`${name}!session.jsonl`, { kind: 'exact', text: root, form: 'auto' });
  for (const c of companions) map.set(`${name}!${c.path}`, { kind: 'exact', text: c.text, form: 'auto' });
  return (path) => map.get(path) ?? NONE;
}
