import { describe, expect, it } from 'vitest';
import { splitArrayHeader } from '../../../src/core/decode/array';
import { startsWithBom } from '../../../src/core/decode/bom';
import { isJsonRpcNotification, rpcContextNote, rpcSessionEvent } from '../../../src/core/decode/jsonrpc';
import { completeEnvelope, isProjectedFirstRecord } from '../../../src/core/decode/projected';

describe('projected envelopes (log-format.md §1.2 step 9a)', () => {
  it('decides the form from the first body record', () => {
    expect(isProjectedFirstRecord({ type: 'turn/start', data: {} })).toBe(true);
    expect(isProjectedFirstRecord({ type: 'turn/start', seq: 0, data: {} })).toBe(false);
    expect(isProjectedFirstRecord({ type: 'text-chunks', seq0: 0, data: {} })).toBe(false);
    expect(isProjectedFirstRecord([1])).toBe(false);
    expect(isProjectedFirstRecord(null)).toBe(false);
  });
  it('fills only missing keys: seq by position, time 0; packed rows seq0/time0', () => {
    expect(completeEnvelope({ type: 'a/b', data: null }, 4)).toEqual({ type: 'a/b', data: null, seq: 4, time: 0 });
    expect(completeEnvelope({ type: 'a/b', seq: 'x', data: null }, 4)).toEqual({ type: 'a/b', seq: 'x', data: null, time: 0 });
    expect(completeEnvelope({ type: 'a/b', time: 7 }, 2)).toEqual({ type: 'a/b', time: 7, seq: 2 });
    expect(completeEnvelope({ type: 'text-chunks', data: {} }, 9)).toEqual({ type: 'text-chunks', data: {}, seq0: 9, time0: 0 });
    // Nested fields of the same name are payload.
    expect(completeEnvelope({ type: 'a/b', data: { seq: 1 } }, 3)).toEqual({ type: 'a/b', data: { seq: 1 }, seq: 3, time: 0 });
    expect(completeEnvelope(null, 1)).toBeNull();
    expect(completeEnvelope([{ type: 'a/b' }], 1)).toEqual([{ type: 'a/b' }]);
  });
});

describe('JSON-RPC captures (§9.1)', () => {
  it('recognises a notification with or without "jsonrpc"', () => {
    expect(isJsonRpcNotification({ method: 'session.status', params: {} })).toBe(true);
    expect(isJsonRpcNotification({ jsonrpc: '2.0', method: 'x', params: { a: 1 } })).toBe(true);
    expect(isJsonRpcNotification({ method: 'x', params: [] })).toBe(false);
    expect(isJsonRpcNotification({ method: 1, params: {} })).toBe(false);
    expect(isJsonRpcNotification({ type: 'session' })).toBe(false);
  });
  it('unwraps session.event and keeps subagent.* as context', () => {
    expect(rpcSessionEvent({ method: 'session.event', params: { sessionId: 's', event: { type: 'a/b' } } })).toEqual({
      sessionId: 's',
      event: { type: 'a/b' },
    });
    expect(rpcSessionEvent({ method: 'session.status', params: { sessionId: 's' } })).toBeNull();
    expect(rpcContextNote({ method: 'subagent.started', params: { childSessionId: 'c' } })).toBe('subagent.started {"childSessionId":"c"}');
    expect(rpcContextNote({ method: 'session.status', params: {} })).toBeNull();
    expect(rpcContextNote({ method: 'subagent.finished', params: { text: 'x'.repeat(500) } })!.length).toBeLessThan(260);
  });
});

describe('byte-order mark and array header', () => {
  it('sees EF BB BF only at the start', () => {
    expect(startsWithBom(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b]))).toBe(true);
    expect(startsWithBom(new Uint8Array([0x20, 0xef, 0xbb, 0xbf]))).toBe(false);
    expect(startsWithBom(new Uint8Array([0xef, 0xbb]))).toBe(false);
  });
  it('takes element 0 as the header only when it is one', () => {
    const header = { type: 'session', version: 0, id: 's' };
    expect(splitArrayHeader([header, { type: 'a/b' }])).toMatchObject({ header, events: [{ type: 'a/b' }] });
    expect(splitArrayHeader([header]).diagnostic?.rule).toBe('decode/array-header');
    expect(splitArrayHeader([{ type: 'a/b' }, header])).toMatchObject({
      header: null,
      diagnostic: null,
      events: [{ type: 'a/b' }, header],
    });
    expect(splitArrayHeader([])).toMatchObject({ header: null, events: [] });
  });
});
