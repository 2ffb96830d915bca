// A quote entry's `signatureData` is typed data every common signer takes as-is (issue 12 item 4): viem, ethers v6
// (`signTypedData(domain, types, value)`, which throws "ambiguous primary types" when `EIP712Domain` is among the
// types), and a raw `eth_signTypedData_v4` JSON-RPC call to anvil with `EIP712Domain` added from the domain's fields,
// as wallet libraries add it. Each signature is accepted by POST /order and the order fills on anvil. A raw call that
// signs an EMPTY `EIP712Domain` (what MetaMask inserts when the types lack it) is refused with a hint at
// `EIP712Domain`; the same call with the proper domain type passes.
import { Wallet } from "ethers";
import {
  concat,
  getTypesForEIP712Domain,
  type Hex,
  keccak256,
  type LocalAccount,
  type TypedDataDomain,
  toHex,
} from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { InvalidSwapperSignatureError } from "../../src/orders/errors.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository, type OrderRow } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import type { QuoteResponse } from "../../src/swap/schemas.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import {
  approveReactor,
  fillOrder,
  quoteRequestBody,
  requestFromSignatureData,
  useQuotingSwapApp,
} from "../support/orders.ts";
import { hashRequest } from "../support/requests.ts";

const chain = useTestChain();

type Entry = QuoteResponse["quotes"][number];
type SignatureData = Entry["signatureData"];

/** The private key of a test account (an anvil dev account derived from the mnemonic), for ethers' Wallet. */
function privateKeyOf(account: LocalAccount): Hex {
  const key = (account as LocalAccount & { getHdKey(): { privateKey: Uint8Array | null } }).getHdKey()
    .privateKey;
  if (!key) throw new Error("no private key");
  return toHex(key);
}

/** `eth_signTypedData_v4` sent to anvil for `address` (one of anvil's unlocked dev accounts) with `payload`. */
async function rawSignTypedDataV4(address: string, payload: unknown): Promise<Hex> {
  const response = await fetch(chain.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_signTypedData_v4",
      params: [address, JSON.stringify(payload)],
    }),
  });
  const body = (await response.json()) as { result?: Hex; error?: unknown };
  if (!body.result) throw new Error(`eth_signTypedData_v4 failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** The JSON-RPC payload of `signatureData`, with `EIP712Domain` as wallet libraries add it (from the domain's fields). */
function walletPayload(data: SignatureData) {
  return {
    types: {
      EIP712Domain: getTypesForEIP712Domain({ domain: data.domain as TypedDataDomain }),
      ...data.types,
    },
    domain: data.domain,
    primaryType: data.primaryType,
    message: data.value,
  };
}

describe("a quote entry's signatureData signed as-is", () => {
  const clock = new ManualClock(Date.now());
  const swap = useQuotingSwapApp("pglite", chain, clock);
  let swapper: LocalAccount;

  beforeEach(async () => {
    swapper = chain.accounts.swapper;
    clock.set(Number(await chain.now()) * 1000);
    await approveReactor(chain, swapper);
  });

  async function quoteEntry(): Promise<Entry> {
    const response = await swap.app.inject({
      method: "POST",
      url: "/api/v1/quote",
      payload: quoteRequestBody(chain, { amount: 100n * 10n ** 18n, swapper: swapper.address }),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().quotes[0];
  }

  const postOrder = (entry: Entry, signature: Hex) =>
    swap.app.inject({ method: "POST", url: "/api/v1/order", payload: { quote: entry.quote, signature } });

  async function expectOrderFills(entry: Entry, signature: Hex): Promise<OrderRow> {
    const response = await postOrder(entry, signature);
    expect(response.statusCode, response.body).toBe(200);
    const row = await new OrderRepository(swap.database, new OrderEvents(), new OrderStats()).findById(
      response.json().orderId,
    );
    if (!row) throw new Error("order not stored");
    await fillOrder(chain, row);
    return row;
  }

  it("carries the Request and Output types only, as the real backend does", async () => {
    const { signatureData } = await quoteEntry();
    expect(Object.keys(signatureData.types).sort()).toEqual(["Output", "Request"]);
  });

  it("is documented so in the OpenAPI document: types has Request and Output, nothing else", async () => {
    const document = (await swap.app.inject({ url: "/api/v1/openapi.json" })).json();
    const types = document.components.schemas.SignatureData.properties.types;
    expect(Object.keys(types.properties).sort()).toEqual(["Output", "Request"]);
    expect(types.required.sort()).toEqual(["Output", "Request"]);
    expect(types.additionalProperties).toBe(false);
    expect(types.description).toContain("EIP712Domain");
  });

  it("viem: signTypedData with the entry's domain, types, primaryType and value", async () => {
    const entry = await quoteEntry();
    const { domain, types, primaryType, value } = entry.signatureData;
    const signature = await swapper.signTypedData({ domain, types, primaryType, message: value });
    await expectOrderFills(entry, signature);
  });

  it("ethers v6: Wallet.signTypedData(domain, types, value)", async () => {
    const entry = await quoteEntry();
    const { domain, types, value } = entry.signatureData;
    const signature = (await new Wallet(privateKeyOf(swapper)).signTypedData(domain, types, value)) as Hex;
    await expectOrderFills(entry, signature);
  });

  it("raw eth_signTypedData_v4 to anvil, EIP712Domain added from the domain's fields", async () => {
    const entry = await quoteEntry();
    const signature = await rawSignTypedDataV4(swapper.address, walletPayload(entry.signatureData));
    await expectOrderFills(entry, signature);
  });

  it("refuses a signature over an empty EIP712Domain (MetaMask's raw v4 default) with a hint; the domain type fixes it", async () => {
    const entry = await quoteEntry();
    const { value } = entry.signatureData;
    // What MetaMask's raw eth_signTypedData_v4 signs when the types lack EIP712Domain (eth-sig-util inserts
    // `EIP712Domain: []`, whose struct hash is its type hash alone): 0x1901 ‖ keccak256("EIP712Domain()") ‖
    // hashStruct(Request). anvil derives the domain type itself, so the wallet's digest is made and signed here.
    const digest = keccak256(
      concat(["0x1901", keccak256(toHex("EIP712Domain()")), hashRequest(requestFromSignatureData(value))]),
    );
    if (!swapper.sign) throw new Error("the test account cannot sign a digest");
    const emptyDomain = await swapper.sign({ hash: digest });

    const refused = await postOrder(entry, emptyDomain);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: "INVALID_SIGNATURE",
      message: expect.stringContaining("EIP712Domain"),
      details: { reason: "not_the_signer" },
    });

    // The quote is not used up: signed again with the domain type, it becomes an order that fills.
    const signature = await rawSignTypedDataV4(swapper.address, walletPayload(entry.signatureData));
    await expectOrderFills(entry, signature);
  });
});

describe("POST /order's INVALID_SIGNATURE message", () => {
  const swapper = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";

  it.each(["not_the_signer", "refused_by_contract"] as const)(
    "hints at EIP712Domain for %s (a well-formed signature over the wrong domain)",
    (reason) => {
      expect(new InvalidSwapperSignatureError(swapper, reason).message).toContain("EIP712Domain");
    },
  );

  it.each(["high_s", "odd_length", "wrong_length", "invalid_v"] as const)(
    "gives no hint for %s",
    (reason) => {
      expect(new InvalidSwapperSignatureError(swapper, reason).message).not.toContain("EIP712Domain");
    },
  );
});
