// How a quoted total becomes outputs (DESIGN.md §3, §5): fee outputs take floor(total × portionBps / 10000), the one
// remainder output takes the rest; committing a better hard round keeps every fee at its signed amount and gives all
// of the improvement to the remainder output.
import type { Address } from "viem";

export interface RequestedOutput {
  token: Address;
  recipient: Address;
  portionBps?: number;
}

export interface OutputWithAmount extends RequestedOutput {
  amount: bigint;
}

export class OutputCommitmentError extends Error {
  override name = "OutputCommitmentError";
  constructor(
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function splitOutputs(total: bigint, requested: readonly RequestedOutput[]): OutputWithAmount[] {
  const fees = requested.map((output) =>
    output.portionBps === undefined ? 0n : (total * BigInt(output.portionBps)) / 10_000n,
  );
  const feeSum = fees.reduce((sum, fee) => sum + fee, 0n);
  return requested.map((output, index) => ({
    ...output,
    amount: output.portionBps === undefined ? total - feeSum : (fees[index] ?? 0n),
  }));
}

/**
 * The committed outputs for a hard round total ≥ the quoted total. Every committed output is asserted ≥ its signed
 * amount: a failure here is a bug (the caller answers 500 and logs it), never a client error.
 */
export function commitOutputs(signed: readonly OutputWithAmount[], hardTotal: bigint): OutputWithAmount[] {
  const feeSum = signed.filter((o) => o.portionBps !== undefined).reduce((sum, o) => sum + o.amount, 0n);
  const committed = signed.map((output) =>
    output.portionBps === undefined ? { ...output, amount: hardTotal - feeSum } : { ...output },
  );
  committed.forEach((output, index) => {
    const before = signed[index];
    if (
      !before ||
      output.amount < before.amount ||
      output.token !== before.token ||
      output.recipient !== before.recipient
    ) {
      throw new OutputCommitmentError("committed output below its signed amount", {
        index,
        signed: before?.amount.toString(),
        committed: output.amount.toString(),
        hardTotal: hardTotal.toString(),
      });
    }
  });
  return committed;
}
