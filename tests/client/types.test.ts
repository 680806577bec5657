/** Compile-time checks of the client seams (run by tsc and vitest's expectTypeOf). */
import { describe, expectTypeOf, it } from 'vitest';
import type { Remote } from 'comlink';
import type { CoreClient } from '../../src/client/CoreClient';
import type { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import type { WorkerCoreClient } from '../../src/client/WorkerCoreClient';
import type { CoreApi, RowWindow, SurfaceWindow } from '../../src/protocol/protocol';
import type { TestEngine } from '../support/test-engine';

describe('client types', () => {
  it('every client is a CoreClient, and a CoreClient is the engine API plus a life cycle', () => {
    expectTypeOf<WorkerCoreClient>().toMatchTypeOf<CoreClient>();
    expectTypeOf<InProcessCoreClient>().toMatchTypeOf<CoreClient>();
    expectTypeOf<TestEngine>().toMatchTypeOf<CoreClient>();
    expectTypeOf<CoreClient>().toMatchTypeOf<CoreApi>();
    expectTypeOf<CoreClient['terminate']>().toEqualTypeOf<() => void>();
  });

  it('Comlink keeps the engine methods callable with the same results over the worker', () => {
    expectTypeOf<ReturnType<Remote<CoreApi>['rows']>>().toEqualTypeOf<Promise<RowWindow>>();
    expectTypeOf<ReturnType<Remote<CoreApi>['surface']>>().toEqualTypeOf<Promise<SurfaceWindow>>();
    expectTypeOf<ReturnType<Remote<CoreApi>['replaceSteps']>>().toEqualTypeOf<Promise<Int32Array>>();
  });
});
