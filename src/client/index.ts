export type { CoreClient, DeadListener } from './CoreClient';
export { WorkerCoreClient, createEngineWorker } from './WorkerCoreClient';
export type { WorkerLike, WorkerFactory, WorkerCoreClientOptions } from './WorkerCoreClient';
export { InProcessCoreClient } from './InProcessCoreClient';
export { loadInProcessEngine } from './engineFallback';
export { createLatestWins } from './latestWins';
export type { LatestWins, LatestWinsOptions } from './latestWins';
export { EngineDeadError, ProtocolMismatchError, SupersededError, isAbortError, errorMessage } from './errors';
export { createPlaygroundClient } from './PlaygroundClient';
