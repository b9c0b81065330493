import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Host tests only; the webview has its own config under extension/webview.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    // Real child processes share 2 cores with other work; keep files serial.
    fileParallelism: false,
  },
  resolve: {
    alias: { vscode: fileURLToPath(new URL('./test/vscodeStub.ts', import.meta.url)) },
  },
});
