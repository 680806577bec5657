import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The component tests run the real engine in process: on a loaded machine a fold and a render
// can take longer than Testing Library's 1 s default wait. A longer wait changes no assertion;
// it only stops a slow machine from failing a test that would pass.
configure({ asyncUtilTimeout: 5_000 });

// jsdom's Blob has no arrayBuffer() (browsers' has): read it with jsdom's own FileReader, so the
// real engine can open a picked or dropped File in the component tests.
if (typeof Blob.prototype.arrayBuffer !== 'function') {
  Object.defineProperty(Blob.prototype, 'arrayBuffer', {
    value(this: Blob): Promise<ArrayBuffer> {
      return new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as ArrayBuffer);
        reader.onerror = () => reject(reader.error ?? new Error('could not read the blob'));
        reader.readAsArrayBuffer(this);
      });
    },
  });
}

afterEach(() => {
  cleanup();
});
