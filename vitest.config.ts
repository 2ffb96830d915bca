import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    // Most test time is spent waiting on anvil, PostgreSQL and child processes, so two files at once fit even on two
    // cores (vitest's default there is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ["test/support/global-setup.ts"],
  },
});
