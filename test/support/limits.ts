// The request limits the in-process test servers run with, set explicitly: the suites drive one server from one
// address (inject's 127.0.0.1) far faster than any client may (bursts, fuzzing, hundreds of rounds a minute), and are
// about what they drive, not about the limits. The limits and the load shedding are tested with their own values
// (test/limits); the production defaults (RATE_LIMIT_QUOTES_PER_MINUTE 60, RATE_LIMIT_READS_PER_SECOND 50,
// SHED_EVENT_LOOP_DELAY_MS 200) stay what an operator gets.
export const TEST_LIMITS_ENV: Readonly<Record<string, string>> = {
  RATE_LIMIT_QUOTES_PER_MINUTE: "1000000",
  RATE_LIMIT_READS_PER_SECOND: "1000000",
  // A test process's event loop stalls on its own work (compiling, the chain, PGlite): that is no overload.
  SHED_EVENT_LOOP_DELAY_MS: "0",
};
