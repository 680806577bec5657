/**
 * Guided demos: short scripted sessions, each with a line of narration at the steps that
 * matter. A demo is an ordinary log (it loads and folds like any other) plus narration keyed by
 * step, so the app can play it with the normal transport.
 */
import { SessionScript } from '../gen/script';

/** One narrated step: shown when the cursor reaches `step` (the event at index step-1 applied). */
export interface DemoNote {
  step: number;
  text: string;
}

/** A guided demo. */
export interface Demo {
  id: string;
  title: string;
  /** One sentence on what it teaches. */
  summary: string;
  /** The log, as session JSONL. */
  jsonl: string;
  notes: DemoNote[];
}

type Narrate = (seq: number, text: string) => void;

function build(id: string, title: string, summary: string, script: (s: SessionScript, narrate: Narrate) => void): Demo {
  const s = new SessionScript(`demo-${id}`);
  const notes: DemoNote[] = [{ step: 0, text: summary }];
  script(s, (seq, text) => notes.push({ step: seq + 1, text }));
  return { id, title, summary, jsonl: s.toJsonl(), notes };
}

const LONG_OUTPUT = 'line of build output: compiling module, linking, checking types. '.repeat(12);

/** Every guided demo, in teaching order. */
export function demos(): Demo[] {
  return [
    build(
      'three-types',
      'Only three types reach the surface',
      'A session log has about fifty event types, but only user/message, assistant/message and tool/result enter the surface the model sees.',
      (s, narrate) => {
        const prompt = s.userTurn('List the files in src/.');
        narrate(prompt - 2, 'turn/start is log-only: it is recorded, but the model never sees it.');
        narrate(prompt, 'The prompt is a user/message with surfaceOp "append": it becomes the first surface node.');
        const { message, results } = s.assistant('Listing the directory.', [
          { name: 'ls', args: { path: 'src' }, result: 'core/\nui/\nmain.tsx' },
        ]);
        narrate(
          message - 1,
          'The streamed assistant/chunk events are log-only; the assistant/message that cites them is what the model sees.',
        );
        narrate(message, 'assistant/message appends the second node. Its sourceEventSeqs cite the chunks it was assembled from.');
        narrate(results[0]! - 1, 'tool/call is log-only: the call itself is already inside the assistant message.');
        narrate(results[0]!, 'tool/result appends the third node, citing its tool/call.');
        s.endTurn();
      },
    ),
    build(
      'append-flow',
      'A basic append flow',
      'Every surface event appends at the tail, so the surface grows in log order.',
      (s, narrate) => {
        const a = s.userTurn('What is 2 + 2?');
        narrate(a, 'Node 1: the question.');
        const b = s.assistant('4.');
        narrate(b.message, 'Node 2: the answer. Between replaces the surface only grows at the tail.');
        s.endTurn();
        const c = s.userTurn('And 3 + 3?');
        narrate(c, 'A new turn appends its prompt after everything before it.');
        const d = s.assistant('6.');
        narrate(d.message, 'Four nodes: the model view and the human transcript are still identical.');
        s.endTurn();
      },
    ),
    build(
      'compaction',
      'A summarizing compaction',
      'A compaction replaces a range of surface nodes with one checkpoint message that summarizes them.',
      (s, narrate) => {
        const q = s.userTurn('Explain how a hash map works.');
        s.assistant('Keys are hashed to buckets; collisions chain or probe; resizing keeps the load factor low.');
        s.endTurn();
        s.userTurn('And a B-tree?');
        const a = s.assistant('A B-tree keeps sorted keys in wide nodes so lookups touch few pages.');
        const checkpoint = s.compact(
          q,
          a.message,
          'We discussed hash maps (buckets, collisions, resizing) and B-trees (wide sorted nodes).',
        );
        narrate(checkpoint - 2, 'compaction/start opens the bracket (log-only).');
        narrate(checkpoint - 1, 'compaction/summary records the summary and the nodes it will shadow (log-only).');
        narrate(
          checkpoint,
          `The checkpoint user/message replaces ${q}…${a.message}: four nodes become one. They stay in the log; they are shadowed.`,
        );
        narrate(checkpoint + 1, 'compaction/end closes the bracket.');
        const next = s.assistant('Shall we compare their costs?');
        narrate(next.message, 'New messages append after the checkpoint.');
        s.endTurn();
      },
    ),
    build(
      'nested',
      'A nested compaction',
      'A later compaction can shadow an earlier checkpoint (a replace of a replacement), and its range can run from a higher seq to a lower one.',
      (s, narrate) => {
        const q = s.userTurn(
          'Remember the number 7. Then tell me about Rome: its founding legend, the kingdom, the republic, ' +
            'the empire, and why the western half fell while the eastern half lasted another thousand years. ' +
            'Compare the two halves on money, armies, borders and religion, and keep it short enough to read in a minute.',
        );
        const a = s.assistant(
          'Noted: 7. By legend Romulus founded Rome in 753 BC. Seven kings ruled until 509 BC, when the republic ' +
            'began; after a century of civil wars Augustus became the first emperor in 27 BC. The western empire ' +
            'fell in 476 under invasions, debt and divided rule; the eastern empire, richer and easier to defend, ' +
            'lasted until 1453.',
        );
        const first = s.compact(q, q, 'Remember 7; the user asked about Rome.');
        narrate(first, `First compaction: checkpoint ${first} replaces node ${q} and takes its place, before ${a.message}.`);
        const more = s.assistant('Shall I go on with Byzantium?');
        narrate(more.message, 'A new answer appends after them.');
        const second = s.compact(
          first,
          a.message,
          'Remember 7; Rome: founded 753 BC, republic 509 BC, empire 27 BC, west fell 476, east 1453.',
        );
        narrate(
          second,
          `Second compaction: a replace of a replacement, from ${first} to ${a.message}. start ${first} > end ${a.message} numerically, ` +
            `but ranges are located by position on the surface, where ${first} comes first, so the range is valid.`,
        );
        const b = s.assistant('Anything else?');
        narrate(b.message, `Both compactions stay in the log: ${q} is shadowed by ${first}, which is shadowed by ${second}.`);
        s.endTurn();
      },
    ),
    build('prune', 'A tool-result prune', 'Pruning rewrites the content of one long tool result and nothing else.', (s, narrate) => {
      s.userTurn('Run the build.');
      const run = s.assistant('Running it.', [{ name: 'bash', args: { cmd: 'make' }, result: LONG_OUTPUT }]);
      const result = run.results[0]!;
      narrate(result, 'A long tool result lands on the surface.');
      s.assistant('The build passed.');
      const copy = s.prune(result, 'line of build output: compiling module');
      narrate(copy - 1, 'compaction/prune announces the prune (log-only).');
      narrate(copy, `tool/result ${copy} replaces ${result}…${result}: same call id, same message id, only the content is shortened.`);
      s.endTurn();
    }),
    build(
      'rejected',
      'A rejected replace',
      'The fold checks every event; a replace that breaks a rule is refused and the surface stays exactly as it was.',
      (s, narrate) => {
        const q = s.userTurn('Hello!');
        const a = s.assistant('Hi, how can I help?');
        narrate(a.message, 'Two nodes on the surface.');
        s.endTurn();
        const bad = s.logOnly('user/message', {
          id: 'bad',
          role: 'user',
          content: [{ type: 'text', text: 'A summary that forgot to cite what it shadows.' }],
          source: { kind: 'user' },
        });
        // The cursor can only reach the accepted prefix: the note stands at its end, just
        // before the refused event (keyed to the refused event it could never be shown).
        narrate(
          bad - 1,
          `The next event, ${bad}, replaces ${q}…${a.message} with no sourceEventSeqs, so the fold refuses it: every shadowed node must be cited. The surface stays as it is here.`,
        );
      },
    ),
    build(
      'two-views',
      'Human transcript vs model view',
      'The transcript keeps every append-origin message; the model view is the current surface, where replacements stand in.',
      (s, narrate) => {
        const q = s.userTurn('Plan a trip to Kyoto.');
        const a = s.assistant('Day 1: Fushimi Inari. Day 2: Arashiyama. Day 3: Gion.');
        narrate(a.message, 'So far the transcript and the model view show the same two messages.');
        s.endTurn();
        s.userTurn('Add a day trip.');
        const b = s.assistant('Day 4: Nara, for the deer park and Todai-ji.');
        const cp = s.compact(q, b.message, 'A four-day Kyoto plan including a Nara day trip.');
        narrate(cp, 'Now the transcript still shows all four messages (dimmed, linked to the checkpoint); the model sees one summary.');
        const c = s.assistant('Anything else to add?');
        narrate(c.message, 'Both views grow again at the tail.');
        s.endTurn();
      },
    ),
  ].map(fixRejected);
}

/**
 * The rejected demo needs a replace without sources, which the script builder refuses to write;
 * its last event is patched here into that invalid replace.
 */
function fixRejected(demo: Demo): Demo {
  if (demo.id !== 'rejected') return demo;
  const lines = demo.jsonl.trimEnd().split('\n');
  const last = JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
  const prompt = lines.findIndex((line) => line.includes('"type":"user/message"')) - 1;
  const answer = lines.findIndex((line) => line.includes('"type":"assistant/message"')) - 1;
  last.surfaceOp = { op: 'replace', start: prompt, end: answer };
  lines[lines.length - 1] = JSON.stringify(last);
  return { ...demo, jsonl: `${lines.join('\n')}\n` };
}
