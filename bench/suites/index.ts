// Every suite `npm run bench -- --suite <name>` can run. A new suite is a module in this folder exporting a
// BenchSuite, added here.
import { partnerSuite } from "./partner.ts";
import type { BenchSuite } from "./types.ts";

export const SUITES: readonly BenchSuite[] = [partnerSuite];
