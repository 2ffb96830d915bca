// Where Sluice's real answers differ from the real system's documents (fixtures/reference), on purpose: each
// difference names the findings it explains and why it stays. The conformance tests fail on any finding no entry
// explains, and on an entry that no finding needed any more, so this list is always exactly what differs.
// docs/compatibility.md quotes every title.
import type { ErrorObject } from "ajv/dist/2020.js";
import type { OperationKey } from "./reference-documents.ts";

/** Something the conformance tests saw that the reference document does not allow. */
export type Finding =
  /** A response body violates the schema the reference documents for its status. */
  | { kind: "schema"; operation: OperationKey; status: number; error: ErrorObject }
  /** A response status the reference documents neither as such nor as `default` for the operation. */
  | { kind: "undocumented-status"; operation: OperationKey; status: number }
  /** A request the reference's parameters and body schema allow, refused by Sluice. */
  | { kind: "refused-request"; operation: OperationKey; request: string; status: number }
  /** A document-level field (e.g. `info.version`) that differs. */
  | { kind: "document"; field: string; ours: unknown; theirs: unknown };

export interface KnownDifference {
  /** Quoted verbatim in docs/compatibility.md. */
  title: string;
  /** Why Sluice differs: the spec sentence or design fact that wins over the real document. */
  reason: string;
  explains(finding: Finding): boolean;
}

export function describeFinding(finding: Finding): string {
  switch (finding.kind) {
    case "schema":
      return `${finding.operation} ${finding.status}: ${finding.error.instancePath || "(body)"} ${finding.error.message} ${JSON.stringify(finding.error.params)}`;
    case "undocumented-status":
      return `${finding.operation} answered ${finding.status}, which the reference does not document`;
    case "refused-request":
      return `${finding.operation} refused ${finding.request} with ${finding.status}`;
    case "document":
      return `${finding.field}: ours ${JSON.stringify(finding.ours)}, the reference's ${JSON.stringify(finding.theirs)}`;
  }
}

const undocumentedStatus =
  (operations: readonly OperationKey[], status: number) =>
  (finding: Finding): boolean =>
    finding.kind === "undocumented-status" &&
    finding.status === status &&
    operations.includes(finding.operation);

/** The differences of the public API (rfq-backend.openapi.json). */
export const PUBLIC_DIFFERENCES: readonly KnownDifference[] = [
  {
    title: "`info.version` is 3.1.0",
    reason:
      "The spec (§9) says the interface description carries version 3.1.0; the real document says 1.0.0 (the API " +
      "under /api/v1 is the same either way).",
    explains: (finding) => finding.kind === "document" && finding.field === "info.version",
  },
  {
    title: "`orderStatus=unverified` and `orderStatus=insufficient-funds` answer 400",
    reason:
      "The spec (§3) says the list filter accepts open, expired, error, cancelled and filled only; the real " +
      "document's filter also lists unverified and insufficient-funds. Orders still carry those states.",
    explains: (finding) =>
      finding.kind === "refused-request" &&
      finding.operation === "GET /api/v1/orders" &&
      /orderStatus=(unverified|insufficient-funds)$/.test(finding.request),
  },
  {
    title: "`portionBps` of 10000 answers 400",
    reason:
      "DESIGN §5 bounds portionBps to 0–9999 with the fees summing below 10000, so the one output without " +
      "portionBps, the remainder (spec 4.4: exactly one output omits it and receives the remainder), always " +
      "receives something; the real document allows 0–10000, which would let a fee take the whole amount and " +
      "leave the swapper's output at 0.",
    explains: (finding) =>
      finding.kind === "refused-request" &&
      finding.operation === "POST /api/v1/quote" &&
      /portionBps=10000$/.test(finding.request),
  },
  {
    title: "The dev helpers answer 400 to a malformed body",
    reason:
      "The spec (§7) makes every validation failure a 400 with `details.issues[]`, and DESIGN §9 says bad input " +
      "never reaches a 500; the real document lists only 200 and 403 for /dev/fund and /dev/faucet. The 400 " +
      "body is the same error object the real document uses elsewhere.",
    explains: undocumentedStatus(["POST /api/v1/dev/fund", "POST /api/v1/dev/faucet"], 400),
  },
];

/** The differences of the internal API (rfq-backend-internal.openapi.json). */
export const INTERNAL_DIFFERENCES: readonly KnownDifference[] = [
  {
    title: "`GET /api-internal/v1/discounts` answers 400 to a malformed selector",
    reason:
      "DESIGN §9: every endpoint validates its input and answers its error envelope, and nothing a client sends " +
      "reaches a 500; the real document lists only 200 for the list. The body is the document's error object.",
    explains: undocumentedStatus(["GET /api-internal/v1/discounts"], 400),
  },
];

/** Sorts findings into those a difference explains (noting which) and those none does. */
export class DifferenceLedger {
  readonly #differences: readonly KnownDifference[];
  readonly #used = new Set<KnownDifference>();
  readonly unexplained: Finding[] = [];

  constructor(differences: readonly KnownDifference[]) {
    this.#differences = differences;
  }

  /** The findings no known difference explains (also kept in `unexplained`). */
  record(findings: readonly Finding[]): Finding[] {
    const left: Finding[] = [];
    for (const finding of findings) {
      const difference = this.#differences.find((candidate) => candidate.explains(finding));
      if (difference) this.#used.add(difference);
      else left.push(finding);
    }
    this.unexplained.push(...left);
    return left;
  }

  /** Known differences no finding needed: stale entries. */
  unused(): KnownDifference[] {
    return this.#differences.filter((difference) => !this.#used.has(difference));
  }
}
