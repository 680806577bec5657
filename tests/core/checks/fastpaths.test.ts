/**
 * The shortcuts the checks take on the analyzer's hot path must not change a single finding:
 * the S1 text screen, the work shared between the events of one line (packed rows), the loader
 * reusing the seed check's verdicts and the raw fold, and the composite's chunk runs. Each is
 * compared here with the same checks run one event at a time, without any of them.
 */
import { describe, expect, it } from 'vitest';
import type { EventCheck } from '../../../src/core/checks/check';
import { standardChecks } from '../../../src/core/analyze/checks';
import { SessionAnalyzer } from '../../../src/core/analyze/session';
import { checkHeaderLine } from '../../../src/core/checks/header';
import { upgradeLegacyEvent } from '../../../src/core/checks/legacy';
import { LoaderCheck } from '../../../src/core/checks/loader';
import { isLosslessJson, mayHoldLossyNumber } from '../../../src/core/checks/lossless';
import { RelationalCheck } from '../../../src/core/checks/relational';
import { SeedCheck } from '../../../src/core/checks/seed';
import { JsonlScanner } from '../../../src/core/decode/jsonl';
import { applyPlan, describeFoldError, emptySurfaceState, planEvent } from '../../../src/core/fold/surface';
import type { SurfaceState } from '../../../src/core/fold/surface';
import { generateText } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';
import type { Diagnostic, EventLog } from '../../../src/core/model';
import { ByteBuffer } from '../../../src/core/util/grow';

describe('mayHoldLossyNumber (the S1 text screen)', () => {
  it.each([
    ['-0 as a number', '{"a":-0}'],
    ['-0.0', '{"a":[1,-0.0]}'],
    ['-0e5', '{"a":-0e5}'],
    ['-0 inside a string (conservatively)', '{"a":"x-0y"}'],
    ['1e400', '{"a":1e400}'],
    ['1E+309', '{"a":1E+309}'],
    ['-1e-400 (underflows to -0)', '{"a":-1e-400}'],
    ['an exponent with leading zeros', '{"a":1e0400}'],
    ['a 310-digit integer', `{"a":${'9'.repeat(310)}}`],
    ['215 digits and a two-digit exponent', `{"a":${'1'.repeat(215)}e99}`],
  ])('flags %s', (_name, text) => {
    expect(mayHoldLossyNumber(text)).toBe(true);
  });

  it.each([
    ['ordinary numbers', '{"seq":12,"time":1785400000000,"x":[0,1.5,-2,3e-7,1e+21]}'],
    ['a string with digits', '{"a":"1e4 and 123456789012345"}'],
  ])('clears %s', (_name, text) => {
    expect(mayHoldLossyNumber(text)).toBe(false);
  });

  it('never clears a text whose parse is lossy', () => {
    const rng = new Rng(7);
    const digits = (n: number) => Array.from({ length: n }, () => String(rng.int(0, 9))).join('');
    for (let i = 0; i < 5000; i++) {
      const int = rng.int(0, 3) === 0 ? '0' : String(rng.int(1, 9)) + digits(rng.int(0, rng.int(0, 1) ? 3 : 320));
      const frac = rng.int(0, 1) ? `.${digits(rng.int(1, 5))}` : '';
      const exp = rng.int(0, 1) ? `${rng.pick(['e', 'E'])}${rng.pick(['', '+', '-'])}${digits(rng.int(1, 4))}` : '';
      const text = `{"v":[${rng.int(0, 1) ? '-' : ''}${int}${frac}${exp}]}`;
      if (!isLosslessJson(JSON.parse(text))) expect(mayHoldLossyNumber(text), text).toBe(true);
    }
  });
});

/** Run one session's checks over JSONL text: `fast` as the analyzer does, else one by one. */
function diagnosticsOf(text: string, fast: boolean): Diagnostic[] {
  const bytes = new TextEncoder().encode(text);
  let scanner: JsonlScanner | null = null;
  const analyzers: SessionAnalyzer[] = [];
  scanner = new JsonlScanner(ByteBuffer.wrap(bytes), (session) => {
    const header = session.format === 'jsonl' ? checkHeaderLine(scanner?.firstLine ?? null, true) : null;
    const analyzer = new SessionAnalyzer({
      path: 'test',
      form: { container: 'none', text: session.format },
      header: session.header,
      log: session.log,
      baseSeq: session.format === 'stream-json' ? null : 0,
      qa: false,
      checksFor: (fold) =>
        fast ? standardChecks({ format: session.format, header, fold, log: session.log }) : slowChecks(header, session.log),
    });
    analyzers.push(analyzer);
    return analyzer;
  });
  scanner.end();
  return analyzers.flatMap((analyzer) => analyzer.finish(null).diagnostics);
}

/**
 * The standard checks without any shortcut: no line text, no shared verdicts, no raw fold
 * delegation; the loader folds every upgraded event itself.
 */
function slowChecks(header: ReturnType<typeof checkHeaderLine> | null, log: EventLog): EventCheck[] {
  const state: SurfaceState = emptySurfaceState();
  const quiet = { sessionId: header?.sessionId ?? '', messageIdAt: () => undefined, upgraded: () => {} };
  const lookup = (seq: number): unknown => {
    try {
      return upgradeLegacyEvent(log.event(seq), quiet);
    } catch {
      return log.event(seq);
    }
  };
  const rawState: SurfaceState = emptySurfaceState();
  const rawStep = (event: unknown, index: number): string | null => {
    try {
      applyPlan(
        rawState,
        planEvent(event, index, rawState.nodes, (seq) => log.event(seq)),
      );
      return null;
    } catch (error) {
      return describeFoldError(error).message;
    }
  };
  const seed = new SeedCheck({ surface: rawStep });
  const loader =
    header === null
      ? null
      : new LoaderCheck(header, {
          surface: (event, index) => {
            try {
              applyPlan(state, planEvent(event, index, state.nodes, lookup));
              return null;
            } catch (error) {
              return describeFoldError(error).message;
            }
          },
        });
  const relational = new RelationalCheck();
  return [
    {
      // No text, and each check sees every event through its general entry point.
      event: (value, index, line) => {
        seed.event(value, index, line);
        loader?.event(value, index, line);
        relational.event(value, index, line);
      },
      finish: () => {
        const out = seed.finish();
        if (loader !== null) {
          out.push(...loader.finish());
          const { loadError, appended } = loader.loaderResult();
          const message =
            loadError === null
              ? `upstream's loader accepts this log and appends ${appended.join(', ')}`
              : `upstream's loader refuses this log: ${loadError}`;
          out.push({ severity: 'info', rule: 'loader/result', seq: null, line: null, message });
        }
        out.push(...relational.finish());
        return out;
      },
    },
  ];
}

const HEADER = '{"type":"session","version":0,"id":"s1","createdAt":0,"delegationDepth":0}';
const row = (seq0: number, turn: string, extra = '') =>
  `{"type":"text-chunks","seq0":${seq0},"time0":1000,"data":{"turn":${turn},"step":1,"index":0,"dt":[1,${extra || '1'}],"texts":["a","b","c"]}}`;
const start = (seq: number) => [
  `{"type":"turn/start","seq":${seq},"time":1000,"data":{"turn":1}}`,
  `{"type":"step/start","seq":${seq + 1},"time":1000,"data":{"turn":1,"step":1}}`,
];
const log = (...lines: string[]) => `${[HEADER, ...lines].join('\n')}\n`;

describe('SeedCheck with line texts', () => {
  /** The verdicts of a seed check fed `events` (all from the line `text`) with and without it. */
  const verdicts = (text: string, events: unknown[], first: number) =>
    [true, false].map((withText) => {
      const check = new SeedCheck();
      events.forEach((event, k) => check.event(event, first + k, 2, withText ? text : undefined));
      return check.finish();
    });

  it('still tests the seq of a packed row member past 2^53', () => {
    const text = '{"type":"text-chunks","seq0":9007199254740991,"time0":0,"data":{"turn":1,"step":1,"index":0,"dt":[0],"texts":["a","b"]}}';
    const members = [0, 1].map((k) => ({
      type: 'assistant/chunk',
      seq: 9007199254740991 + k,
      time: 0,
      data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'ab'[k] } },
    }));
    const [fast, slow] = verdicts(text, members, 9007199254740991);
    expect(fast).toEqual(slow);
    expect(fast?.[0]?.rule).toBe('seed/envelope');
  });

  it('walks each event of an array line once the screen finds -0', () => {
    const text = '[{"type":"x/y","seq":0,"time":0,"data":1},{"type":"x/y","seq":1,"time":-0,"data":1}]';
    const [fast, slow] = verdicts(text, JSON.parse(text) as unknown[], 0);
    expect(fast).toEqual(slow);
    expect(fast?.[0]?.rule).toBe('seed/lossless');
  });
});

describe('the fast paths agree with the checks run one by one', () => {
  it.each([
    ['a clean packed row', log(...start(0), row(2, '1'))],
    ['-0 as a packed row number', log(...start(0), row(2, '-0'))],
    ['-0 only in a packed row gap (members stay lossless)', log(...start(0), row(2, '1', '-0'))],
    ['-0 inside a packed row string', log(...start(0), row(2, '1').replace('"a"', '"-0"'))],
    ['1e400 in a packed row', log(...start(0), row(2, '1e400'))],
    ['a packed row off by one seq', log(...start(0), row(3, '1'))],
    ['two identical packed rows', log(...start(0), row(2, '1'), row(2, '1'))],
    [
      'two identical chunk lines',
      log(
        ...start(0),
        ...Array(2).fill(
          '{"type":"assistant/chunk","seq":2,"time":1,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":"x"}}}',
        ),
      ),
    ],
    [
      'an array line whose second event has -0',
      log(...start(0), '[{"type":"todo/write","seq":2,"time":1,"data":{}},{"type":"todo/write","seq":3,"time":-0,"data":{}}]'),
    ],
    ['-0 inside a plain string', log(...start(0), '{"type":"todo/write","seq":2,"time":1,"data":{"t":"-0"}}')],
    [
      'a legacy upgrade before a packed row',
      log(
        '{"type":"turn/start","seq":0,"time":1000,"data":{"turn":1,"trigger":{"kind":"user"}}}',
        '{"type":"step/start","seq":1,"time":1000,"data":{"turn":1,"step":1}}',
        row(2, '1'),
      ),
    ],
    [
      'a deferred command citation before a packed row',
      log(
        ...start(0),
        '{"type":"command/run","seq":2,"time":1,"data":{"commandId":"c"}}',
        '{"type":"command/done","seq":3,"time":1,"data":{"commandId":"c","kind":"success","sourceEventSeq":5}}',
        row(4, '1'),
      ),
    ],
    [
      'a headerless log whose repeated row misplaces seqs a command cites',
      `${[...start(0), row(2, '1'), row(2, '1'), '{"type":"command/run","seq":8,"time":1,"data":{"commandId":"c"}}', '{"type":"command/done","seq":9,"time":1,"data":{"commandId":"c","kind":"success","sourceEventSeq":6}}'].join('\n')}\n`,
    ],
  ])('%s', (_name, text) => {
    expect(diagnosticsOf(text, true)).toEqual(diagnosticsOf(text, false));
  });

  it('on generated logs with random damage', () => {
    const rng = new Rng(11);
    for (let round = 0; round < 60; round++) {
      const lines = generateText({ seed: round + 1, events: rng.int(30, 300), openTail: rng.int(0, 2) === 0 }).split('\n');
      lines.pop();
      for (let k = rng.int(0, 2); k > 0; k--) {
        const i = rng.int(1, lines.length - 1);
        const line = lines[i] as string;
        switch (rng.int(0, 5)) {
          case 0: // a number literal becomes lossy
            lines[i] = line.replace(/":(\d+)/, (_m, d: string) => `":${rng.pick(['-0', '1e400', '-1e-400', d])}`);
            break;
          case 1: // a repeated line
            lines.splice(i, 0, line);
            break;
          case 2: // a lost line
            lines.splice(i, 1);
            break;
          case 3: // a packed row moves
            lines[i] = line.replace(/"seq0":(\d+)/, (_m, d: string) => `"seq0":${Math.max(0, Number(d) + rng.int(-2, 2))}`);
            break;
          case 4: // the log ends early
            lines.length = i + 1;
            break;
          default: // a legacy turn/start
            lines[i] = line.replace(/"data":\{"turn":(\d+)\}/, '"data":{"turn":$1,"trigger":{"kind":"user"}}');
        }
      }
      const text = `${lines.join('\n')}\n`;
      expect(diagnosticsOf(text, true), `round ${round}`).toEqual(diagnosticsOf(text, false));
    }
  });
});
