#!/usr/bin/env node
// Sluice ships TypeScript sources and runs them through tsx, so there is no build step to forget.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
