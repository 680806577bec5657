import type { StoreSessionRow } from '../../src/protocol/store-api';

/**
 * A row of the server's store listing for tests: a healthy raw-JSONL top-level session of the
 * project `/home/dev/alpha`, with `over` what the test is about (times, parent, state…).
 */
export function storeRow(id: string, over: Partial<StoreSessionRow> = {}): StoreSessionRow {
  return {
    id,
    sessionId: `session-${id}`,
    cwd: '/home/dev/alpha',
    projectDir: '--home-dev-alpha--',
    fileName: 'session.jsonl',
    format: 'jsonl',
    size: 4096,
    createdAt: 0,
    modifiedAt: 0,
    parentSession: null,
    origin: null,
    delegationDepth: 0,
    seedLength: null,
    state: 'ok',
    reason: null,
    ...over,
  };
}
