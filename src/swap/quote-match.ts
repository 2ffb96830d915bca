// Whether a quote submitted to POST /order is the stored entry, compared by meaning: addresses case-insensitively,
// numbers by value, unknown keys ignored. Returns the differing fields. `portionBps` is compared only when the client
// sent it: the real order request has no such field, so clients typed from it drop it; amounts, tokens and
// recipients (what is signed) are still compared, so nothing signed can change.
import type { z } from "zod";
import type { ValidationIssue } from "../shared/errors.ts";
import type { QuoteRow } from "./repository.ts";
import type { SubmittedQuoteSchema } from "./schemas.ts";

type SubmittedQuote = z.output<typeof SubmittedQuoteSchema>;

function sameAddress(a: string | undefined, b: string): boolean {
  return typeof a === "string" && a.toLowerCase() === b.toLowerCase();
}

function sameAmount(a: string | undefined, b: string): boolean {
  return typeof a === "string" && /^\d+$/.test(a) && BigInt(a) === BigInt(b);
}

export function quoteDifferences(
  submitted: SubmittedQuote,
  stored: QuoteRow,
  swapper: string,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const differs = (path: string) =>
    issues.push({ path: `quote.${path}`, message: "differs from the quote issued" });

  if (submitted.quoteId.toLowerCase() !== stored.quoteId.toLowerCase()) differs("quoteId");
  const aggregated = submitted.aggregatedOutputs;
  if (
    aggregated.length !== 1 ||
    !sameAddress(aggregated[0]?.token, stored.tokenOut) ||
    !sameAmount(aggregated[0]?.amount, stored.amountOut)
  ) {
    differs("aggregatedOutputs");
  }
  const info = submitted.orderInfo;
  if (!sameAddress(info.tokenIn, stored.tokenIn)) differs("orderInfo.tokenIn");
  if (!sameAmount(info.amountIn, stored.amountIn)) differs("orderInfo.amountIn");
  if (info.deadline !== stored.deadline) differs("orderInfo.deadline");
  if (!sameAmount(info.nonce, stored.nonce)) differs("orderInfo.nonce");
  if (info.outputs.length !== stored.outputs.length) differs("orderInfo.outputs");
  else {
    stored.outputs.forEach((output, index) => {
      const given = info.outputs[index];
      if (!given) return;
      if (!sameAddress(given.token, output.token)) differs(`orderInfo.outputs.${index}.token`);
      if (!sameAddress(given.recipient ?? swapper, output.recipient))
        differs(`orderInfo.outputs.${index}.recipient`);
      if (!sameAmount(given.amount, output.amount)) differs(`orderInfo.outputs.${index}.amount`);
      if (given.portionBps !== undefined && given.portionBps !== output.portionBps)
        differs(`orderInfo.outputs.${index}.portionBps`);
    });
  }
  return issues;
}
