/** The words, files, tools and fixed texts the generator writes its content from. */

export const PROVIDER = 'deepseek-official';
export const MODELS = ['deepseek-v4-flash', 'deepseek-v4-pro'] as const;

export const WORDS = (
  'the a to of and in that is for it this with on as be we file function test error value ' +
  'type module config build check run output input path line change update read write add ' +
  'remove fix issue result call return import export const let string number array object ' +
  'event log session surface node seq turn step tool message user assistant model context ' +
  'compaction summary range start end replace append chunk stream block text reasoning ' +
  'handler parser decoder encoder index cache buffer worker request response header status ' +
  'command script package version dependency directory source target branch commit diff ' +
  'patch review comment note warning failure success expected actual should would could ' +
  'need want first next then after before because so but not only also still already now ' +
  'here there which when where why how all each every some any more less same different ' +
  'small large simple clear correct wrong missing empty valid invalid strict loose safe'
).split(' ');

export const VERBS = 'check read open look inspect run update fix add remove rename verify compare trace confirm'.split(' ');
export const CJK = ['日志', '会话', '文件', '测试', '结构', '输出', '问题', '修改', '检查', '完成', '。', '，'];
export const FILES = [
  'src/index.ts',
  'src/core/fold/surface.ts',
  'src/core/decode/jsonl.ts',
  'src/cli/main.ts',
  'src/ui/App.tsx',
  'src/worker/loader.ts',
  'package.json',
  'README.md',
  'tests/fold.test.ts',
  'docs/ARCHITECTURE.md',
  'src/core/util/grow.ts',
  'scripts/build.ts',
  'vite.config.ts',
  'src/store/session.ts',
  'src/protocol/messages.ts',
  'tsconfig.json',
];
export const IDENTS = 'value result events nodes index offset line buffer state config options entry record row seq start end'.split(' ');
export const KEYWORDS = ['const', 'let', 'return', 'if', 'for', 'export function', 'import', 'await', 'throw new Error'];

/** Fixed preamble of a compaction checkpoint (events.md §6.1). */
export const CHECKPOINT_PREAMBLE =
  'This is an automatically generated checkpoint condensing an earlier span of the conversation to ' +
  'free up context. Treat the captured context as established background and build on it without ' +
  'restating it. Continue the task directly from the messages that follow, without acknowledging ' +
  'this checkpoint.\n\n<compacted-summary>';

export const PRUNE_MARKER = '\n\n[... tool result middle pruned ...]\n\n';

export const SYSTEM_PROMPT =
  'You are an AI agent powered by DeepSeek Harness.\n\nYou are a coding assistant. Verify your work ' +
  'by running the code or tests. Keep answers brief and factual.\n\nUse the read tool to inspect ' +
  'text files, the edit tool for targeted changes and bash for commands. Check the [exit code: N] ' +
  'marker on every bash result; investigate failures before moving on.';

export const TOOL_SCHEMAS = [
  {
    name: 'bash',
    description: 'Execute a bash command and return its stdout/stderr.',
    parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] },
  },
  {
    name: 'read',
    description: 'Read a UTF-8 text file and return line-numbered content.',
    parameters: {
      type: 'object',
      properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } },
      required: ['file_path'],
    },
  },
  {
    name: 'edit',
    description: 'Edit an existing UTF-8 text file by replacing literal text.',
    parameters: {
      type: 'object',
      properties: { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } },
      required: ['file_path', 'old_string', 'new_string'],
    },
  },
  {
    name: 'write',
    description: 'Create or fully replace a UTF-8 text file.',
    parameters: {
      type: 'object',
      properties: { file_path: { type: 'string' }, content: { type: 'string' } },
      required: ['file_path', 'content'],
    },
  },
  {
    name: 'grep',
    description: 'Search file contents with a regular expression.',
    parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } }, required: ['pattern'] },
  },
  {
    name: 'run_code',
    description: 'Run a JavaScript snippet that can call other tools.',
    parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
  },
  {
    name: 'todo_write',
    description: 'Record and update a structured task list.',
    parameters: { type: 'object', properties: { todos: { type: 'array' } }, required: ['todos'] },
  },
  {
    name: 'workflow',
    description: 'Run a workflow script that orchestrates subagents.',
    parameters: { type: 'object', properties: { script: { type: 'string' } }, required: ['script'] },
  },
];

export type ToolName = 'bash' | 'read' | 'edit' | 'write' | 'grep' | 'run_code' | 'todo_write' | 'workflow';
export const TOOL_WEIGHTS: readonly (readonly [ToolName, number])[] = [
  ['bash', 30],
  ['read', 28],
  ['edit', 14],
  ['grep', 10],
  ['write', 5],
  ['run_code', 5],
  ['todo_write', 5],
  ['workflow', 3],
];
