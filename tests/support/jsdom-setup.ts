import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The component tests run the real engine in process: on a loaded machine a fold and a render
// can take longer than Testing Library's 1 s default wait. A longer wait changes no assertion;
// it only stops a slow machine from failing a test that would pass.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});
