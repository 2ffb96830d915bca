// The name of the Sluice contract error a call reverted with, for tests that assert which check refused it.
import { decodeRevert } from "../../src/chain/errors.ts";

/** The revert's error name (e.g. `InvalidOutput`), or undefined when the error carries no decodable revert. */
export function revertErrorName(errorOrData: unknown): string | undefined {
  return decodeRevert(errorOrData)?.name;
}
