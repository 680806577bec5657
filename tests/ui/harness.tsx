/** Renders UI under test with a store on the real engine and a fixed viewport (jsdom has no layout). */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AppStoreProvider } from '../../src/store/react';
import { VirtualViewportProvider } from '../../src/ui/widgets/VirtualList';
import { engineStoreWith, engineStoreWithLog, makeEngineStore } from '../store/helpers';
import type { EngineTestStore } from '../store/helpers';
import type { LogEvent, TestEngineOptions } from '../support/test-engine';

export const VIEWPORT = { width: 900, height: 440 };

export function renderWith(ui: ReactElement, test: EngineTestStore) {
  const result = render(
    <AppStoreProvider store={test.store}>
      <VirtualViewportProvider value={VIEWPORT}>{ui}</VirtualViewportProvider>
    </AppStoreProvider>,
  );
  return { ...result, ...test };
}

/** Renders `ui` with nothing loaded yet. */
export function renderIdle(ui: ReactElement, options: TestEngineOptions = {}) {
  return renderWith(ui, makeEngineStore(options));
}

/** Renders `ui` on the real engine with a project fixture opened (`tests/fixtures/<fixture>`). */
export async function renderFixture(ui: ReactElement, fixture = 'teaching.jsonl', options: TestEngineOptions = {}) {
  return renderWith(ui, await engineStoreWith(fixture, options));
}

/** Renders `ui` on the real engine with a log written by the test opened. */
export async function renderLog(ui: ReactElement, events: readonly LogEvent[], options: TestEngineOptions = {}) {
  return renderWith(ui, await engineStoreWithLog(events, 'test.jsonl', options));
}
