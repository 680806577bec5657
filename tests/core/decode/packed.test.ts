/**
 * Packed chunk rows (log-format.md §3.2–§3.3): every validation message, in order, and the
 * expansion of each row kind.
 */
import { describe, expect, it } from 'vitest';
import { expandPackedRow, validatePackedRow } from '../../../src/core/decode/packed';

const text = (data: Record<string, unknown> = {}, envelope: Record<string, unknown> = {}) => ({
  type: 'text-chunks',
  seq0: 2,
  time0: 1002,
  data: { turn: 1, step: 1, index: 0, dt: [5, -2], texts: ['Ray', 'leigh', ' scattering'], ...data },
  ...envelope,
});
const tool = (data: Record<string, unknown> = {}) => ({
  type: 'tool-call-chunks',
  seq0: 7,
  time0: 0,
  data: { turn: 1, step: 1, index: 1, id: 'c1', name: 'ls', dt: [1, 1], args: ['{"a"', ':', '1}'], ...data },
});
const fails = (row: Record<string, unknown>) => () => validatePackedRow(row);

describe('packed row validation messages', () => {
  it.each([
    ['envelope', { ...text(), extra: 1 }, 'malformed text-chunks storage row: envelope must be exactly {type, seq0, time0, data}'],
    ['seq0', text({}, { seq0: -1 }), 'malformed text-chunks storage row: seq0 must be a non-negative safe integer'],
    ['time0', text({}, { time0: 1.5 }), 'malformed text-chunks storage row: time0 must be a safe integer'],
    ['data', text({}, { data: null }), 'malformed text-chunks storage row: data must be an object'],
    ['text keys', text({ extra: 1 }), 'malformed text-chunks storage row: data must be exactly {turn, step, index, dt, texts}'],
    [
      'tool keys',
      tool({ texts: [] }),
      'malformed tool-call-chunks storage row: data must be exactly {turn, step, index, id, name?, dt, args}',
    ],
    ['tool id', tool({ id: 3 }), 'malformed tool-call-chunks storage row: id (and name when present) must be strings'],
    ['tool name', tool({ name: null }), 'malformed tool-call-chunks storage row: id (and name when present) must be strings'],
    ['numbers', text({ turn: '1' }), 'malformed text-chunks storage row: turn/step/index must be numbers'],
    ['payload', text({ texts: [] }), 'malformed text-chunks storage row: texts must be a non-empty string array'],
    ['tool payload', tool({ args: ['a', 2, 'b'] }), 'malformed tool-call-chunks storage row: args must be a non-empty string array'],
    ['dt', text({ dt: [1, 0.5] }), 'malformed text-chunks storage row: dt must be an array of safe integers'],
    ['dt length', text({ dt: [1] }), 'malformed text-chunks storage row: dt length 1 does not match 3 members'],
    ['member seqs', text({}, { seq0: Number.MAX_SAFE_INTEGER }), 'malformed text-chunks storage row: member seqs must stay safe integers'],
    ['member times', text({ dt: [Number.MAX_SAFE_INTEGER, 1] }), 'malformed text-chunks storage row: member times must stay safe integers'],
  ])('%s', (_name, row, message) => {
    expect(fails(row as Record<string, unknown>)).toThrow(message);
  });
});

describe('packed row expansion', () => {
  it('expands a reasoning row with cumulative, possibly decreasing times', () => {
    const events = expandPackedRow(validatePackedRow({ ...text(), type: 'reasoning-chunks' }));
    expect(events.map((e) => [e.seq, e.time])).toEqual([
      [2, 1002],
      [3, 1007],
      [4, 1005],
    ]);
    expect(events[1]).toEqual({
      type: 'assistant/chunk',
      seq: 3,
      time: 1007,
      data: { turn: 1, step: 1, chunk: { type: 'reasoning-delta', index: 0, text: 'leigh' } },
    });
  });

  it('puts the tool name on every member when the row has it, and on none otherwise', () => {
    const named = expandPackedRow(validatePackedRow(tool()));
    expect(named.every((e) => (e.data as { chunk: { name?: string } }).chunk.name === 'ls')).toBe(true);
    const { name: _name, ...rest } = tool().data;
    const anonymous = expandPackedRow(validatePackedRow({ ...tool(), data: rest }));
    expect(anonymous.every((e) => !('name' in (e.data as { chunk: object }).chunk))).toBe(true);
  });
});
