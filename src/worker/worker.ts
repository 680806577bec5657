// Thin glue: the engine lives in engine.ts; Comlink exposes it to the page (src/client).
import { expose } from 'comlink';
import { createEngine } from './engine';

expose(createEngine());
