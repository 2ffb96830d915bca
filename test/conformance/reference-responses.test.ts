// Sluice's real answers against the real system's documents (ajv): every operation that Sluice's own OpenAPI document
// and rfq-backend.openapi.json share, and every internal operation Sluice serves that rfq-backend-internal.openapi.json
// has, is called on a devnet (INTERNAL_API_AUTH=network, as vault-solver calls it) with good and bad requests; each
// answer's body must match the reference's schema for its status (or `default`). What differs on purpose is listed
// in known-differences.ts with its reason; a finding not on that list fails, and so does an entry no finding needed.
// Every status the reference documents for a shared operation must be answered at least once, unless listed in
// UNREACHED_STATUSES with the reason no test can provoke it. The dev helpers' 403 comes from a second, non-local
// Sluice (no chain), the draining 503 from the devnet at the end.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Address, erc20Abi, type Hex, zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { reactorAbi } from "../../src/chain/abis.ts";
import { createChainWalletClient } from "../../src/chain/client.ts";
import { type Discount, signDiscount, type TypedDataSigner } from "../../src/chain/order.ts";
import { discountRequestBody } from "../../src/demo/discount.ts";
import type { App } from "../../src/http/server.ts";
import { devnetClient, startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { requestFromSignatureData } from "../support/orders.ts";
import { signRequest } from "../support/requests.ts";
import { createTestServer, placeholderDeployment, unstartedDeployment } from "../support/server.ts";
import {
  DifferenceLedger,
  describeFinding,
  type Finding,
  INTERNAL_DIFFERENCES,
  PUBLIC_DIFFERENCES,
} from "./known-differences.ts";
import {
  INTERNAL_REFERENCE,
  type OpenApiDocument,
  type OperationKey,
  operationKey,
  operations,
  PUBLIC_REFERENCE,
  ReferenceValidator,
  readDocument,
} from "./reference-documents.ts";

/** The operations both public documents have today; a new shared one joins the computed set and must be tested. */
const EXPECTED_SHARED = [
  "GET /api/v1/health",
  "GET /api/v1/solver-logos/{}",
  "POST /api/v1/check_approval",
  "POST /api/v1/dev/fund",
  "GET /api/v1/dev/faucet",
  "POST /api/v1/dev/faucet",
  "POST /api/v1/quote",
  "POST /api/v1/liquidity",
  "POST /api/v1/liquidity-batch",
  "POST /api/v1/discount",
  "POST /api/v1/order",
  "GET /api/v1/orders",
];
const EXPECTED_SHARED_INTERNAL = ["GET /api-internal/v1/discounts", "POST /api-internal/v1/discounts"];

/** Statuses the reference documents that no request can provoke from a correct Sluice, each with the reason. */
const UNREACHED_STATUSES: ReadonlyArray<{ operation: OperationKey; status: string; reason: string }> = [
  {
    operation: "POST /api/v1/discount",
    status: "500",
    reason:
      "an internal failure: Sluice answers 500 only on a bug, and no valid or invalid request provokes one",
  },
];

interface Surface {
  name: string;
  reference: ReferenceValidator;
  ledger: DifferenceLedger;
  shared: OperationKey[];
  /** `${operation} ${status}` of every answer judged. */
  answered: Set<string>;
}

const ONE_RWA = 10n ** 18n;

describe("conformance with the real system's documents", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice;
  let origin: string;
  let internalOrigin: string;
  let publicSurface: Surface;
  let internalSurface: Surface;
  let ours: OpenApiDocument;
  // A Sluice that is not a local deployment: its dev helpers answer 403.
  let remote: App;

  beforeAll(async () => {
    devnet = await startTestDevnet(dataDir.path, { env: { INTERNAL_API_AUTH: "network" } });
    origin = new URL(devnet.apiUrl).origin;
    internalOrigin = new URL(devnet.sluice.internalApiUrl).origin;
    ours = (await (await fetch(`${devnet.apiUrl}/openapi.json`)).json()) as OpenApiDocument;

    const reference = new ReferenceValidator(readDocument(PUBLIC_REFERENCE), "rfq-backend");
    const oursOperations = operations(ours);
    publicSurface = {
      name: "public",
      reference,
      ledger: new DifferenceLedger(PUBLIC_DIFFERENCES),
      shared: [...reference.operations.keys()].filter((key) => oursOperations.has(key)),
      answered: new Set(),
    };
    // The internal API is not in Sluice's document (it is never public): what it serves is what its listener routes.
    const internalReference = new ReferenceValidator(
      readDocument(INTERNAL_REFERENCE),
      "rfq-backend-internal",
    );
    internalSurface = {
      name: "internal",
      reference: internalReference,
      ledger: new DifferenceLedger(INTERNAL_DIFFERENCES),
      shared: [...internalReference.operations.keys()].filter((key) => {
        const [method, url] = key.split(" ") as ["GET" | "POST", string];
        return devnet.sluice.internalHttp.hasRoute({ method, url });
      }),
      answered: new Set(),
    };

    // On the devnet's database (the routes it is asked never touch it), to spare a database of its own.
    remote = (
      await createTestServer(devnet.sluice.parts.database, {
        deployment: unstartedDeployment(placeholderDeployment({ local: false })),
      })
    ).app;
  });

  afterAll(async () => {
    await remote?.close();
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  interface Answer {
    status: number;
    contentType: string;
    body: unknown;
  }

  /** Judges one answer of `operation`: its findings must all be known differences. */
  function judge(surface: Surface, operation: OperationKey, answer: Answer, what: string): void {
    expect(surface.shared, `${operation} is not a shared operation`).toContain(operation);
    surface.answered.add(`${operation} ${answer.status}`);
    const verdict = surface.reference.check(operation, answer.status, answer.contentType, answer.body);
    const findings: Finding[] = verdict.documented
      ? verdict.errors.map((error) => ({ kind: "schema", operation, status: answer.status, error }))
      : verdict.wrongMediaType
        ? [
            {
              kind: "schema",
              operation,
              status: answer.status,
              error: {
                instancePath: "",
                schemaPath: "content",
                keyword: "mediaType",
                params: {},
                message: `content type ${verdict.wrongMediaType}`,
              },
            },
          ]
        : [{ kind: "undocumented-status", operation, status: answer.status }];
    const unexplained = surface.ledger.record(findings);
    expect(unexplained.map(describeFinding), `${what}: ${JSON.stringify(answer.body).slice(0, 400)}`).toEqual(
      [],
    );
  }

  /** Sends a request to the devnet and judges the answer; returns it. */
  async function call(
    surface: Surface,
    operation: OperationKey,
    path: string,
    options: { body?: unknown; expect: number; base?: string } = { expect: 200 },
  ): Promise<Answer> {
    const [method] = operation.split(" ") as [string];
    const url = `${options.base ?? (surface === internalSurface ? internalOrigin : origin)}${path}`;
    const response = await fetch(url, {
      method,
      ...(options.body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(options.body) }),
    });
    const contentType = response.headers.get("content-type") ?? "";
    const body = contentType.startsWith("application/json")
      ? await response.json()
      : Buffer.from(await response.arrayBuffer());
    const answer = { status: response.status, contentType, body };
    expect(response.status, `${method} ${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(options.expect);
    judge(surface, operation, answer, `${method} ${path}`);
    return answer;
  }

  /**
   * A request the reference allows, answered `status` by Sluice: judged as a refused request when it is a 4xx. A
   * request with a body is named by `request` (what makes it one the reference allows).
   */
  async function callAllowed(
    surface: Surface,
    operation: OperationKey,
    path: string,
    status: number,
    withBody?: { body: unknown; request: string },
  ) {
    const answer = await call(surface, operation, path, {
      expect: status,
      ...(withBody ? { body: withBody.body } : {}),
    });
    if (status >= 400) {
      const request = withBody ? `${path} ${withBody.request}` : path;
      const left = surface.ledger.record([{ kind: "refused-request", operation, request, status }]);
      expect(left.map(describeFinding)).toEqual([]);
    }
    return answer;
  }

  const q = (operation: OperationKey, path: string, options?: { body?: unknown; expect: number }) =>
    call(publicSurface, operation, path, options);

  it("computes the shared operations from the two documents", () => {
    expect(publicSurface.shared.sort()).toEqual([...EXPECTED_SHARED].sort());
    expect(internalSurface.shared.sort()).toEqual([...EXPECTED_SHARED_INTERNAL].sort());
  });

  it("the validator is not vacuous: the document's own quote example passes, and fails once broken", () => {
    const schemas = publicSurface.reference.document.components?.schemas ?? {};
    const [example] = (schemas.PublicQuoteResponse as { examples: Array<Record<string, unknown>> }).examples;
    const check = (body: unknown) =>
      publicSurface.reference
        .check("POST /api/v1/quote", 200, "application/json", body)
        .errors.map((error) => error.keyword);
    expect(check(example)).toEqual([]);
    const { routing: _routing, ...withoutRouting } = example!;
    expect(check(withoutRouting)).toContain("required");
    expect(check({ ...example, extra: 1 })).toContain("additionalProperties");
    expect(check({ ...example, quotes: [] })).toContain("minItems");
  });

  it("docs/compatibility.md lists exactly the known differences", () => {
    const guide = readFileSync(
      fileURLToPath(new URL("../../docs/compatibility.md", import.meta.url)),
      "utf8",
    );
    const listed = [...guide.matchAll(/^- \*\*(.+?)\*\*:/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(
      [...PUBLIC_DIFFERENCES, ...INTERNAL_DIFFERENCES].map((difference) => difference.title).sort(),
    );
  });

  it("document-level fields differ only where listed", () => {
    const theirs = publicSurface.reference.document;
    const findings: Finding[] = [];
    if (ours.info.version !== theirs.info.version) {
      findings.push({
        kind: "document",
        field: "info.version",
        ours: ours.info.version,
        theirs: theirs.info.version,
      });
    }
    if (ours.openapi !== theirs.openapi) {
      findings.push({ kind: "document", field: "openapi", ours: ours.openapi, theirs: theirs.openapi });
    }
    expect(publicSurface.ledger.record(findings).map(describeFinding)).toEqual([]);
  });

  const swapper = privateKeyToAccount(generatePrivateKey());
  let rwa: Address;
  let usd: Address;
  let logoPath: string;
  let quoteEntry: { quote: { quoteId: string }; signatureData: { value: unknown } } & Record<string, unknown>;

  it("system and dev helpers: /health, /dev/faucet, /dev/fund, /solver-logos (and 403 off the devnet)", async () => {
    rwa = devnet.chain.core.tokens.rwa;
    usd = devnet.chain.core.tokens.usd;
    await q("GET /api/v1/health", "/api/v1/health");
    await q("GET /api/v1/dev/faucet", "/api/v1/dev/faucet");
    await q("POST /api/v1/dev/faucet", "/api/v1/dev/faucet", {
      body: { walletAddress: swapper.address },
      expect: 200,
    });
    await q("POST /api/v1/dev/faucet", "/api/v1/dev/faucet", {
      body: { walletAddress: "0x12" },
      expect: 400,
    });
    await q("POST /api/v1/dev/fund", "/api/v1/dev/fund", {
      body: { walletAddress: swapper.address },
      expect: 200,
    });
    await q("POST /api/v1/dev/fund", "/api/v1/dev/fund", { body: {}, expect: 400 });
    await q("GET /api/v1/solver-logos/{}", "/api/v1/solver-logos/nobody-00.png", { expect: 404 });

    for (const [method, url, payload] of [
      ["GET", "/api/v1/dev/faucet", undefined],
      ["POST", "/api/v1/dev/faucet", { walletAddress: swapper.address }],
      ["POST", "/api/v1/dev/fund", { walletAddress: swapper.address }],
    ] as const) {
      const response = await remote.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(response.statusCode, response.body).toBe(403);
      judge(
        publicSurface,
        operationKey(method, url),
        { status: 403, contentType: String(response.headers["content-type"]), body: response.json() },
        `${method} ${url} off the devnet`,
      );
    }
  });

  it("/check_approval, /quote, /liquidity, /liquidity-batch: answers and refusals", async () => {
    const chainId = devnet.chain.chainId;
    const approval = {
      walletAddress: swapper.address,
      chainId,
      token: rwa,
      amount: (5n * ONE_RWA).toString(),
    };
    await q("POST /api/v1/check_approval", "/api/v1/check_approval", { body: approval, expect: 200 });
    await q("POST /api/v1/check_approval", "/api/v1/check_approval", {
      body: { ...approval, chainId: 1 },
      expect: 400,
    });

    const quoteBody = {
      tokenInChainId: chainId,
      tokenOutChainId: chainId,
      tokenIn: rwa,
      tokenOut: usd,
      type: "EXACT_INPUT",
      amount: (5n * ONE_RWA).toString(),
      swapper: swapper.address,
      outputs: [{ token: usd }],
    };
    const quoted = await q("POST /api/v1/quote", "/api/v1/quote", { body: quoteBody, expect: 200 });
    const entries = (quoted.body as { quotes: Array<typeof quoteEntry> }).quotes;
    quoteEntry = entries[0]!;
    logoPath = new URL(
      (
        entries.find((entry) => (entry.solver as { metadata: { logoUrl?: string } }).metadata.logoUrl)!
          .solver as {
          metadata: { logoUrl: string };
        }
      ).metadata.logoUrl,
    ).pathname;
    await q("POST /api/v1/quote", "/api/v1/quote", {
      body: { ...quoteBody, tokenInChainId: 1 },
      expect: 400,
    });
    await q("POST /api/v1/quote", "/api/v1/quote", { body: { ...quoteBody, amount: "1" }, expect: 404 });
    // The reference bounds portionBps at 10000; a fee of the whole amount leaves the remainder output nothing.
    await callAllowed(publicSurface, "POST /api/v1/quote", "/api/v1/quote", 400, {
      body: {
        ...quoteBody,
        outputs: [{ token: usd, recipient: swapper.address, portionBps: 10000 }, { token: usd }],
      },
      request: "portionBps=10000",
    });
    await q("GET /api/v1/solver-logos/{}", logoPath);

    await q("POST /api/v1/liquidity", "/api/v1/liquidity", { body: { tokenIn: rwa }, expect: 200 });
    await q("POST /api/v1/liquidity", "/api/v1/liquidity", { body: { tokenIn: usd }, expect: 400 });
    await q("POST /api/v1/liquidity-batch", "/api/v1/liquidity-batch", {
      body: { tokensIn: [rwa] },
      expect: 200,
    });
    await q("POST /api/v1/liquidity-batch", "/api/v1/liquidity-batch", {
      body: { tokensIn: [rwa, rwa.toUpperCase().replace("0X", "0x")] },
      expect: 400,
    });
  });

  it("/order and /orders: an order filled, its re-post, and every refusal", async () => {
    const chainId = devnet.chain.chainId;
    const reactor = devnet.chain.core.reactor;
    const client = devnetClient(devnet);
    const wallet = createChainWalletClient({ chainId, rpcUrls: devnet.chain.rpcUrl, account: swapper });
    const approve = await wallet.writeContract({
      address: rwa,
      abi: erc20Abi,
      functionName: "approve",
      args: [reactor, 2n ** 256n - 1n],
    });
    await client.waitForTransactionReceipt({ hash: approve, pollingInterval: 100 });

    const request = requestFromSignatureData(
      quoteEntry.signatureData.value as Parameters<typeof requestFromSignatureData>[0],
    );
    const signature = await signRequest(swapper, { chainId, reactor }, request);
    const ordered = await q("POST /api/v1/order", "/api/v1/order", {
      body: { quote: quoteEntry.quote, signature },
      expect: 200,
    });
    const { orderId } = ordered.body as { orderId: string };
    await q("POST /api/v1/order", "/api/v1/order", {
      body: { quote: quoteEntry.quote, signature },
      expect: 200,
    });
    await q("POST /api/v1/order", "/api/v1/order", {
      body: { quote: { ...quoteEntry.quote, quoteId: randomUUID() }, signature },
      expect: 404,
    });
    await q("POST /api/v1/order", "/api/v1/order", { body: { quote: quoteEntry.quote }, expect: 400 });

    // Open orders asked for by filler carry the execution fields (vault-solver's poll); then the order fills.
    await q("GET /api/v1/orders", `/api/v1/orders?orderId=${orderId}`);
    for (;;) {
      const listed = await q("GET /api/v1/orders", `/api/v1/orders?orderId=${orderId}`);
      const [order] = (listed.body as { orders: Array<{ orderStatus: string }> }).orders;
      if (order?.orderStatus === "filled") break;
      expect(order?.orderStatus).toBe("open");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await q(
      "GET /api/v1/orders",
      `/api/v1/orders?swapper=${swapper.address}&orderStatus=filled&sortKey=updatedAt`,
    );
    await q("GET /api/v1/orders", "/api/v1/orders", { expect: 400 });
    await q("GET /api/v1/orders", "/api/v1/orders?orderStatus=bogus", { expect: 400 });
    for (const status of ["unverified", "insufficient-funds"]) {
      await callAllowed(publicSurface, "GET /api/v1/orders", `/api/v1/orders?orderStatus=${status}`, 400);
    }

    // The bundled solvers stop filling: the next order stays open, and vault-solver's poll (by filler) shows it with
    // the execution fields.
    await devnet.bundled.stopFilling();
    const quoteOne = async () => {
      const next = await q("POST /api/v1/quote", "/api/v1/quote", {
        body: {
          tokenInChainId: chainId,
          tokenOutChainId: chainId,
          tokenIn: rwa,
          tokenOut: usd,
          type: "EXACT_INPUT",
          amount: ONE_RWA.toString(),
          swapper: swapper.address,
          outputs: [{ token: usd }],
        },
        expect: 200,
      });
      const entry = (next.body as { quotes: Array<typeof quoteEntry> }).quotes[0]!;
      const nextRequest = requestFromSignatureData(
        entry.signatureData.value as Parameters<typeof requestFromSignatureData>[0],
      );
      return {
        entry,
        request: nextRequest,
        signature: await signRequest(swapper, { chainId, reactor }, nextRequest),
      };
    };
    const open = await quoteOne();
    await q("POST /api/v1/order", "/api/v1/order", {
      body: { quote: open.entry.quote, signature: open.signature },
      expect: 200,
    });
    const filler = (open.entry.solver as { filler: string }).filler;
    const polled = await q("GET /api/v1/orders", `/api/v1/orders?filler=${filler}&orderStatus=open`);
    const [executable] = (polled.body as { orders: Array<Record<string, unknown>> }).orders;
    for (const field of ["encodedOrder", "protocolSignature", "deadline", "filler"]) {
      expect(executable, field).toHaveProperty(field);
    }

    // Paging (an extension): the cursor handed out is one the reference's `cursor` parameter accepts.
    const page = await q("GET /api/v1/orders", `/api/v1/orders?swapper=${swapper.address}&limit=1`);
    const cursor = (page.body as { cursor: string | null }).cursor;
    expect(cursor).toEqual(expect.any(String));
    expect(publicSurface.reference.parameterErrors("GET /api/v1/orders", "cursor", cursor!)).toEqual([]);
    expect(publicSurface.reference.parameterErrors("GET /api/v1/orders", "limit", "1")).toEqual([]);
    await q("GET /api/v1/orders", `/api/v1/orders?swapper=${swapper.address}&limit=1&cursor=${cursor}`);

    // 409: the swapper invalidates a quote's nonce on-chain before posting it.
    const invalidated = await quoteOne();
    const invalidate = await wallet.writeContract({
      address: reactor,
      abi: reactorAbi,
      functionName: "invalidateNonce",
      args: [invalidated.request.nonce],
    });
    await client.waitForTransactionReceipt({ hash: invalidate, pollingInterval: 100 });
    await q("POST /api/v1/order", "/api/v1/order", {
      body: { quote: invalidated.entry.quote, signature: invalidated.signature },
      expect: 409,
    });
  });

  it("/discount: published, refused, replayed", async () => {
    const chainId = devnet.chain.chainId;
    const adapter = devnet.chain.core.adapters.usd;
    const curator = devnet.chain.accounts.curator.account;
    const latest = await devnetClient(devnet).getBlock({ blockTag: "latest" });
    const discount: Discount = {
      tokenToRedeem: rwa,
      discount: 700n,
      signer: curator.address,
      protocol: devnet.chain.protocolSigner.address,
      nonce: BigInt(`0x${randomBytes(16).toString("hex")}`),
      deadline: Number(latest.timestamp) + 3600,
    };
    const body = (terms: Discount, signer: TypedDataSigner = curator) =>
      signDiscount(signer, { chainId, adapter }, terms).then((signature) =>
        discountRequestBody(adapter, terms, signature),
      );
    await q("POST /api/v1/discount", "/api/v1/discount", { body: await body(discount), expect: 200 });
    await q("POST /api/v1/discount", "/api/v1/discount", { body: { discount: {} }, expect: 400 });
    // Signed by a key not authorized on the adapter.
    await q("POST /api/v1/discount", "/api/v1/discount", {
      body: await body({ ...discount, signer: swapper.address, nonce: discount.nonce + 1n }, swapper),
      expect: 400,
    });
    // A cancel (deadline 0) works once; its replay is a conflict.
    const cancel = await body({ ...discount, deadline: 0, nonce: discount.nonce + 2n });
    await q("POST /api/v1/discount", "/api/v1/discount", { body: cancel, expect: 200 });
    await q("POST /api/v1/discount", "/api/v1/discount", { body: cancel, expect: 409 });
  });

  it("the internal API (network mode): the live list with its selectors, resolve in its four shapes, refusals", async () => {
    // The devnet published its demo discount at start; the cancel above removed the tUSD pair's, so publish again.
    const chainId = devnet.chain.chainId;
    const adapter = devnet.chain.core.adapters.usd;
    const curator = devnet.chain.accounts.curator.account;
    const latest = await devnetClient(devnet).getBlock({ blockTag: "latest" });
    const terms: Discount = {
      tokenToRedeem: rwa,
      discount: 650n,
      signer: curator.address,
      protocol: devnet.chain.protocolSigner.address,
      nonce: BigInt(`0x${randomBytes(16).toString("hex")}`),
      deadline: Number(latest.timestamp) + 3600,
    };
    const signature = await signDiscount(curator, { chainId, adapter }, terms);
    const published = await q("POST /api/v1/discount", "/api/v1/discount", {
      body: discountRequestBody(adapter, terms, signature),
      expect: 200,
    });
    const { discountId } = published.body as { discountId: Hex };

    const i = (operation: OperationKey, path: string, options?: { body?: unknown; expect: number }) =>
      call(internalSurface, operation, path, options);
    const listed = await i("GET /api-internal/v1/discounts", "/api-internal/v1/discounts");
    expect(
      (listed.body as { discounts: Array<{ discountId: string }> }).discounts.map((d) => d.discountId),
    ).toContain(discountId);
    for (const query of [
      `discountId=${discountId}`,
      `discountIds=${discountId}`,
      `adapter=${adapter}&tokenToRedeem=${rwa}`,
      `adapters=${adapter}&tokensToRedeem=${rwa}`,
    ]) {
      await i("GET /api-internal/v1/discounts", `/api-internal/v1/discounts?${query}`);
    }
    await i("GET /api-internal/v1/discounts", "/api-internal/v1/discounts?discountId=0x12", { expect: 400 });
    for (const body of [
      { discountId },
      { discountIds: [discountId] },
      { adapter, tokenToRedeem: rwa },
      { adapters: [adapter], tokensToRedeem: [rwa] },
    ]) {
      await i("POST /api-internal/v1/discounts", "/api-internal/v1/discounts", { body, expect: 200 });
    }
    await i("POST /api-internal/v1/discounts", "/api-internal/v1/discounts", { body: {}, expect: 400 });
    await i("POST /api-internal/v1/discounts", "/api-internal/v1/discounts", {
      body: { discountId: `0x${"ab".repeat(32)}` },
      expect: 404,
    });
    await i("POST /api-internal/v1/discounts", "/api-internal/v1/discounts", {
      body: { adapter: zeroAddress, tokenToRedeem: rwa },
      expect: 404,
    });
  });

  it("GET /health while draining: 503", async () => {
    devnet.sluice.parts.lifecycle.startDraining();
    await q("GET /api/v1/health", "/api/v1/health", { expect: 503 });
  });

  it("every documented status of every shared operation was answered; every known difference was needed", () => {
    for (const surface of [publicSurface, internalSurface]) {
      const missing = surface.shared.flatMap((operation) =>
        surface.reference
          .statuses(operation)
          .filter((status) => status !== "default")
          .filter((status) => !surface.answered.has(`${operation} ${status}`))
          .filter(
            (status) =>
              !UNREACHED_STATUSES.some(
                (unreached) => unreached.operation === operation && unreached.status === status,
              ),
          )
          .map((status) => `${operation} ${status}`),
      );
      expect(missing, `${surface.name}: documented statuses never answered`).toEqual([]);
      expect(
        surface.ledger.unused().map((difference) => difference.title),
        `${surface.name}: known differences no answer needed`,
      ).toEqual([]);
      expect(surface.ledger.unexplained.map(describeFinding)).toEqual([]);
    }
  });
});
