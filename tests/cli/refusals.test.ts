/** `check` on files nothing can be read from: one record each, with the refusal as decodeError. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'surface-lens-refusals-'));

describe('check --json on refused archives', () => {
  it('writes one JSON record with decodeError (rule and member) and nothing on stderr', async () => {
    const file = join(dir, 'unsafe.zip');
    writeFileSync(file, zipSync({ '/abs/session.jsonl': new TextEncoder().encode('{}\n') }));
    const r = await run(['check', '--json', file]);
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string) as { file: string; events: number; decodeError: { rule: string; message: string } };
    expect(record.file).toBe(file);
    expect(record.events).toBe(0);
    expect(record.decodeError.rule).toBe('zip/unsafe-path');
    expect(record.decodeError.message).toContain('"/abs/session.jsonl"');
  });

  it('a surface error without a seq says its position, not "seq undefined"', async () => {
    const file = join(dir, 'noseq.jsonl');
    writeFileSync(file, '{"type":"user/message","time":0,"data":{},"surfaceOp":"append"}\n');
    const r = await run(['check', file]);
    // The fold's own message is upstream's exact text (it does say "seq undefined"); the place
    // before it is worded for a person.
    expect(r.out).toContain('line 1, position 0 (no seq) [surface/contiguity]: session event seq undefined is not contiguous; expected 0');
    const json = await run(['check', '--json', file]);
    expect((JSON.parse(json.out) as { surfaceError: { seq: unknown } }).surfaceError.seq).toBeNull();
  });
});
