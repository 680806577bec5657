/**
 * Builds session stores laid out as dsh lays them out (session-store.md §2) from the project's
 * generators: `<root>/--<project-key>--/<encoded-id>/session.jsonl(.zstd)`, Zstandard files as
 * one frame for the header and one per write batch. Used by the server tests and by
 * `npm run samples` for the bundled sample store.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateLog } from '../../src/core/gen/generate';
import type { GenOptions } from '../../src/core/gen/generate';
import { zstdFrames } from './zstd-frames';

/** upstream's `projectKey(cwd)` (session-store.md §2). */
export function projectKey(cwd: string): string {
  let slug = '';
  for (const ch of cwd.replace(/[/\\:]+/g, '-')) {
    if (/^[A-Za-z0-9._-]$/.test(ch)) slug += ch;
    else for (let i = 0; i < ch.length; i++) slug += `~${ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  slug = slug.replace(/^-+/, '');
  if (slug === '') slug = 'root';
  return `--${slug.slice(0, 251)}--`;
}

/** upstream's `encodeSegment(id)` (session-store.md §2). */
export function encodeSegment(id: string): string {
  if (id === '.') return '~002E';
  if (id === '..') return '~002E~002E';
  let out = '';
  for (let i = 0; i < id.length; i++) {
    const ch = id[i] as string;
    out += /^[A-Za-z0-9._-]$/.test(ch) ? ch : `~${id.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/** One session of a built store. */
export interface StoreSessionSpec {
  id: string;
  cwd: string;
  gen: Omit<GenOptions, 'sessionId'>;
  encoding?: 'zstd' | 'jsonl';
  /** Header fields of a subagent child. */
  parent?: { id: string; depth: number; seedLength?: number };
  /** Lines per Zstandard frame after the header frame (default 40). */
  batch?: number;
}

/** The lines of a spec's log: its header (with the spec's cwd and parent) and its records. */
export function sessionLines(spec: StoreSessionSpec): string[] {
  const lines = Array.from(generateLog({ ...spec.gen, sessionId: spec.id }).lines);
  const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
  header.cwd = spec.cwd;
  if (spec.parent) {
    header.parentSession = spec.parent.id;
    header.origin = 'subagent';
    header.delegationDepth = spec.parent.depth;
    if (spec.parent.seedLength !== undefined) header.seedLength = spec.parent.seedLength;
  }
  lines[0] = JSON.stringify(header);
  return lines;
}

/** The file's bytes: raw lines, or one Zstandard frame for the header then one per batch. */
export async function encodeSession(lines: readonly string[], encoding: 'zstd' | 'jsonl', batch = 40): Promise<Uint8Array> {
  if (encoding === 'jsonl') return new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
  const texts = [`${lines[0] as string}\n`];
  for (let i = 1; i < lines.length; i += batch) texts.push(`${lines.slice(i, i + batch).join('\n')}\n`);
  return zstdFrames(texts);
}

/** The path of a session's file relative to the root. */
export function sessionPath(spec: Pick<StoreSessionSpec, 'id' | 'cwd' | 'encoding'>): string {
  const name = (spec.encoding ?? 'zstd') === 'zstd' ? 'session.jsonl.zstd' : 'session.jsonl';
  return join(projectKey(spec.cwd), encodeSegment(spec.id), name);
}

/** Writes the sessions under `root`; returns each one's path. */
export async function writeStore(root: string, specs: readonly StoreSessionSpec[]): Promise<string[]> {
  const paths: string[] = [];
  for (const spec of specs) {
    const path = join(root, sessionPath(spec));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, await encodeSession(sessionLines(spec), spec.encoding ?? 'zstd', spec.batch));
    paths.push(path);
  }
  return paths;
}
