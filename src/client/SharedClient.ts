/**
 * A view of an engine client for a second store on the same engine (the playground's): every
 * request goes to the engine unchanged, except that the view does not own the engine's load. It
 * opens nothing (an `open` there would replace the main view's file), has no load to cancel, and
 * terminating it does nothing; it dies when the engine dies. The playground is an ordinary
 * session of the engine, named by its own handle, so nothing is remapped.
 */
import { CORE_METHODS } from '../protocol/protocol';
import type { CoreMethod } from '../protocol/protocol';
import type { CoreClient } from './CoreClient';

const refusals: Partial<Record<CoreMethod, () => Promise<never> | Promise<void>>> = {
  open: () => Promise.reject(new Error('The playground does not open files; open them in the main view.')),
  cancel: () => Promise.resolve(),
  grow: () => Promise.reject(new Error('The playground does not follow a file.')),
};

export function createSharedClient(client: CoreClient): CoreClient {
  const view: Record<string, unknown> = {};
  for (const method of Object.keys(CORE_METHODS) as CoreMethod[]) {
    const refusal = CORE_METHODS[method] === 'load' ? refusals[method] : undefined;
    view[method] = refusal ?? ((...args: unknown[]) => (client[method] as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return Object.defineProperties(view, {
    dead: { get: () => client.dead },
    engineHome: { get: () => client.engineHome ?? null },
    terminate: { value: () => {} },
    onDead: { value: (listener: Parameters<CoreClient['onDead']>[0]) => client.onDead(listener) },
    onStall: { value: (listener: Parameters<NonNullable<CoreClient['onStall']>>[0]) => client.onStall?.(listener) ?? (() => {}) },
  }) as unknown as CoreClient;
}
