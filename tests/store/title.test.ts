import { describe, expect, it } from 'vitest';
import { selectPageTitle } from '../../src/store/selectors';
import type { AppState } from '../../src/store/types';

const state = (partial: Record<string, unknown>): AppState =>
  ({ load: null, status: 'idle', sourceName: null, session: 0, ...partial }) as unknown as AppState;
const load = (file: string, paths: string[]) => ({
  file,
  sessions: paths.map((path, index) => ({ index, path, sessionId: `id${index}` })),
});

describe('page title', () => {
  it('names the file, and the session when the file holds several', () => {
    expect(selectPageTitle(state({}))).toBe('Surface Lens');
    expect(selectPageTitle(state({ status: 'loading', sourceName: 'big.jsonl' }))).toBe('big.jsonl — Surface Lens');
    expect(selectPageTitle(state({ load: load('a.jsonl', ['a.jsonl']) }))).toBe('a.jsonl — Surface Lens');
    const zip = load('x.zip', ['x.zip!session.jsonl', 'x.zip!subagents/c1/session.jsonl']);
    expect(selectPageTitle(state({ load: zip, session: 1 }))).toBe('x.zip · subagents/c1/session.jsonl — Surface Lens');
    expect(selectPageTitle(state({ load: load('s.jsonl', ['s.jsonl#a', 's.jsonl#b']), session: 1 }))).toBe('s.jsonl · b — Surface Lens');
  });
});

describe('status text of a file with several sessions', () => {
  it('counts the open session, and says how many the file holds', async () => {
    const { selectStatusText } = await import('../../src/store/selectors');
    const sessions = [
      { index: 0, path: 'x.zip!session.jsonl', events: 500, surfaceError: null, decodeError: null },
      { index: 1, path: 'x.zip!subagents/c/session.jsonl', events: 1, surfaceError: null, decodeError: null },
    ];
    const base = { status: 'ready', engineError: null, load: { file: 'x.zip', sessions } };
    expect(selectStatusText(state({ ...base, session: 1 }))).toBe('Loaded 1 event in session 2 of 2 (501 events in the file).');
    expect(selectStatusText(state({ ...base, load: { file: 'a', sessions: [sessions[0]] } }))).toBe('Loaded 500 events.');
  });
});
