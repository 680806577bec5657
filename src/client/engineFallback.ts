/**
 * Lazily loads the engine for the in-process fallback. `import.meta.glob` keeps the engine out
 * of the main bundle (it is a separate chunk, fetched only when `Worker` is unavailable) and
 * does not fail to type-check while the engine module is being written.
 */
import type { CoreApi } from '../protocol/protocol';

interface EngineModule {
  createEngine(): CoreApi;
}

const modules = import.meta.glob<EngineModule>('../worker/engine.ts');

export async function loadInProcessEngine(): Promise<CoreApi> {
  const load = modules['../worker/engine.ts'];
  if (!load) throw new Error('This build has no in-process engine (src/worker/engine.ts is missing).');
  const module = await load();
  return module.createEngine();
}
