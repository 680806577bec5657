/** Renders UI under test with a store on the fake client and a fixed viewport (jsdom has no layout). */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AppStoreProvider } from '../../src/store/react';
import { VirtualViewportProvider } from '../../src/ui/widgets/VirtualList';
import type { FakeClientOptions } from '../support/fake-client';
import { loadedTestStore, makeTestStore } from '../store/helpers';
import type { TestStore } from '../store/helpers';

export const VIEWPORT = { width: 900, height: 440 };

export function renderWith(ui: ReactElement, test: TestStore) {
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
