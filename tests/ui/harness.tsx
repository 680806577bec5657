/** Renders UI under test with a store on the fake client and a fixed viewport (jsdom has no layout). */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AppStoreProvider } from '../../src/store/react';
import { VirtualViewportProvider } from '../../src/ui/widgets/VirtualList';
import type { FakeClientOptions } from '../support/fake-client';
import { engineStoreWith, loadedTestStore, makeTestStore } from '../store/helpers';
import type { EngineTestStore, TestStore } from '../store/helpers';
import type { TestEngineOptions } from '../support/test-engine';

export const VIEWPORT = { width: 900, height: 440 };

export function renderWith<T extends TestStore | EngineTestStore>(ui: ReactElement, test: T) {
  const result = render(
    <AppStoreProvider store={test.store}>
      <VirtualViewportProvider value={VIEWPORT}>{ui}</VirtualViewportProvider>
    </AppStoreProvider>,
  );
  return { ...result, ...test };
}

/** Renders `ui` with the fake session loaded. */
export async function renderLoaded(ui: ReactElement, options: FakeClientOptions = {}) {
  return renderWith(ui, await loadedTestStore(options));
}

export function renderIdle(ui: ReactElement, options: FakeClientOptions = {}) {
  return renderWith(ui, makeTestStore(options));
}

/** Renders `ui` on the real engine with a project fixture opened (`tests/fixtures/<fixture>`). */
export async function renderFixture(ui: ReactElement, fixture = 'teaching.jsonl', options: TestEngineOptions = {}) {
  return renderWith(ui, await engineStoreWith(fixture, options));
}
