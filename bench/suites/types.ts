// What `bench/run.ts` knows about a suite: a name, a description for --help, and a run that prints its own
// report and returns the JSON written under bench/results/. Suites live in bench/suites/*.ts and are listed
// in ./index.ts.
import type { BenchDatabaseKind } from "../dataset/store.ts";

export interface SuiteOptions {
  databases: BenchDatabaseKind[];
  durationSeconds: number;
  connections: number;
  /** Regenerate stored datasets even when their markers say they are complete. */
  regenerate: boolean;
  /** Fraction of the full dataset to load into PGlite (1 = the same dataset as PostgreSQL). */
  pgliteScale: number;
  /** Idle order streams the stream suite holds on one replica. */
  idleStreams: number;
  /** Fraction of the points-engine suite's history (blocks, stakers, events) to generate (1 = the size). */
  pointsScale: number;
}

export interface SuiteResult {
  /** The report as printed (Markdown), also pasted into bench/README.md. */
  text: string;
  /** Everything measured, for bench/results/<suite>-<time>.json. */
  json: unknown;
}

export interface BenchSuite {
  name: string;
  description: string;
  run(options: SuiteOptions): Promise<SuiteResult>;
}
