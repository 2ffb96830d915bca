import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Inside the repository @sluice/client is its sources (as tsconfig.json's paths say), so tests run what is checked
  // out; test/client/package.test.ts installs the packed package to test what users install.
  resolve: {
    alias: { "@sluice/client": fileURLToPath(new URL("./packages/client/src/index.ts", import.meta.url)) },
  },
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    // Most test time is spent waiting on anvil, PostgreSQL and child processes, so two files at once fit even on two
    // cores (vitest's default there is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps the modules it loaded from one file to the next instead of loading the whole service again for
    // each: the tests use no module mocks, fake timers or environment changes, and stop whatever servers, chains and
    // databases they start, so what one file leaves behind is only the loaded code.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ["test/support/global-setup.ts"],
  },
});
