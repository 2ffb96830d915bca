// `points sync` against a partner's External Points API, played by a real local HTTP server: lossless
// numbers, decimals conversion, resuming after a failed page, and all-or-nothing snapshots.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { PartnerApiError, syncPartnerPoints } from "../../src/points/sync.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { address } from "./support.ts";

const V1 = address("a", 1);
const V2 = address("a", 2);
const R1 = address("b", 1);
const R2 = address("b", 2);
const R3 = address("b", 3);
const N1 = address("d", 1);
const N2 = address("d", 2);

/** What the fake partner serves: raw JSON text per page, so numbers can exceed what a double holds. */
interface PartnerState {
  lastBlock: string;
  pages: Map<number, string>;
  /** Pages that answer 500 the first time they are asked for. */
  failOnce: Set<number>;
  requests: string[];
}

function partnerRow(fields: {
  receiver: string;
  type?: string;
  block: string;
  network?: string;
  vault: string;
  points: string;
}): string {
  const network = fields.network ? `"${fields.network}"` : "null";
  return `{"receiver_address":"${fields.receiver}","receiver_type":"${fields.type ?? "staker"}","block_number":${fields.block},"network_address":${network},"vault_address":"${fields.vault}","points":${fields.points}}`;
}

function page(rows: string[], nextPage: number | null): string {
  return `{"data":[${rows.join(",")}],"next_page":${nextPage === null ? "null" : nextPage}}`;
}

async function startPartner(state: PartnerState): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://partner");
    state.requests.push(`${url.pathname}${url.search}`);
    if (url.pathname === "/v1/last_block") {
      response.setHeader("content-type", "application/json");
      response.end(`{"last_block":${state.lastBlock}}`);
      return;
    }
    if (url.pathname === "/v1/api/all" && url.searchParams.get("block_number") === state.lastBlock) {
      const pageNumber = Number(url.searchParams.get("page"));
      if (state.failOnce.delete(pageNumber)) {
        response.statusCode = 500;
        response.end("internal error");
        return;
      }
      const body = state.pages.get(pageNumber);
      if (body !== undefined) {
        response.setHeader("content-type", "application/json");
        response.end(body);
        return;
      }
    }
    response.statusCode = 404;
    response.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/`, server };
}

const HUGE_WHOLE = "123456789012345678901234"; // 1.2e23 whole points: beyond 2^64 even before scaling
/** Today's (legacy) shape, named, in whole points. */
const LEGACY = { feedFormat: "legacy", feedDecimals: 0 } as const;

describe.each(databaseKinds)("partner points sync, legacy feed (%s)", (kind) => {
  let database: Database;
  let partner: { url: string; server: Server };
  const state: PartnerState = { lastBlock: "0", pages: new Map(), failOnce: new Set(), requests: [] };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    partner = await startPartner(state);
  });

  afterEach(() => {
    state.requests.length = 0;
  });

  afterAll(async () => {
    await new Promise((resolve) => partner?.server.close(resolve));
    await database?.close();
  });

  const balances = (pointsType: string) =>
    database.query<{ vault: string; receiver: string; receiver_type: string; points: string }>(
      `select b.vault, b.receiver, b.receiver_type, b.points::text as points
       from points_balances b join points_snapshots s on s.id = b.snapshot_id
       where s.points_type = $1 order by b.vault, b.receiver, b.receiver_type`,
      [pointsType],
    );

  it("resumes at the page that failed and converts every value exactly", async () => {
    const block = "21000000";
    state.lastBlock = block;
    state.pages = new Map([
      [
        1,
        page(
          [
            // A JSON number far beyond 2^53, in whole points: × 10^18 exactly.
            partnerRow({ receiver: R1, block, network: N1, vault: V1, points: HUGE_WHOLE }),
            // The same position through a second network: added up.
            partnerRow({ receiver: R1, block, network: N2, vault: V1, points: '"0.000000000000000001"' }),
          ],
          2,
        ),
      ],
      [2, page([partnerRow({ receiver: R2, type: "operator", block, vault: V1, points: "2.5e3" })], 3)],
      [
        3,
        page(
          [partnerRow({ receiver: R2.toUpperCase().replace("0X", "0x"), block, vault: V2, points: '"1.5"' })],
          4,
        ),
      ],
      [4, page([partnerRow({ receiver: R3, block, network: N1, vault: V2, points: "0" })], null)],
    ]);
    state.failOnce = new Set([3]);

    const first = syncPartnerPoints(database, { ...LEGACY, url: partner.url, pointsType: "partner" });
    await expect(first).rejects.toBeInstanceOf(PartnerApiError);
    await expect(first).rejects.toThrow(/page=3: HTTP 500/);
    expect(await database.query("select 1 from points_snapshots where points_type = 'partner'")).toEqual([]);
    expect(await database.query("select next_page, staged_rows from points_syncs")).toEqual([
      { next_page: 3, staged_rows: 3 },
    ]);
    expect(state.requests).toEqual([
      "/v1/last_block",
      `/v1/api/all?block_number=${block}&page=1`,
      `/v1/api/all?block_number=${block}&page=2`,
      `/v1/api/all?block_number=${block}&page=3`,
    ]);
    state.requests.length = 0;

    const second = await syncPartnerPoints(database, { ...LEGACY, url: partner.url, pointsType: "partner" });
    expect(state.requests).toEqual([
      "/v1/last_block",
      `/v1/api/all?block_number=${block}&page=3`,
      `/v1/api/all?block_number=${block}&page=4`,
    ]);
    expect(second).toMatchObject({ status: "synced", blockNumber: 21_000_000, resumed: true });
    const E18 = 10n ** 18n;
    const expected = [
      {
        vault: V1,
        receiver: R1,
        receiver_type: "staker",
        points: (BigInt(HUGE_WHOLE) * E18 + 1n).toString(),
      },
      { vault: V1, receiver: R2, receiver_type: "operator", points: (2500n * E18).toString() },
      { vault: V2, receiver: R2, receiver_type: "staker", points: (15n * 10n ** 17n).toString() },
      { vault: V2, receiver: R3, receiver_type: "staker", points: "0" },
    ];
    expect(await balances("partner")).toEqual(expected);
    if (second.status !== "synced") throw new Error("expected a synced result");
    expect(second.snapshot).toMatchObject({ decimals: 18, inputRows: 5, receiverRows: 4, vaults: 2 });
    expect(second.snapshot.totalPoints).toBe(expected.reduce((sum, item) => sum + BigInt(item.points), 0n));
    expect(await database.query("select * from points_syncs")).toEqual([]);
    expect(await database.query("select * from points_sync_rows")).toEqual([]);
  });

  it("does nothing once the partner's last block is stored", async () => {
    const result = await syncPartnerPoints(database, { ...LEGACY, url: partner.url, pointsType: "partner" });
    expect(result).toEqual({ status: "up-to-date", format: "legacy", blockNumber: 21_000_000 });
    expect(state.requests).toEqual(["/v1/last_block"]);
  });

  it("converts from the partner's declared decimals into the type's", async () => {
    const block = "21000100";
    state.lastBlock = block;
    state.pages = new Map([
      [
        1,
        page(
          [
            partnerRow({ receiver: R1, block, vault: V1, points: "1234567" }),
            partnerRow({ receiver: R2, block, vault: V1, points: `"${HUGE_WHOLE}000000"` }),
          ],
          null,
        ),
      ],
    ]);
    const result = await syncPartnerPoints(database, {
      url: partner.url,
      feedFormat: "legacy",
      pointsType: "micro",
      feedDecimals: 6,
      typeDecimals: 48,
    });
    expect(result).toMatchObject({ status: "synced", resumed: false, snapshot: { decimals: 48 } });
    expect((await balances("micro")).map((item) => item.points)).toEqual([
      (1234567n * 10n ** 42n).toString(),
      (BigInt(HUGE_WHOLE) * 10n ** 48n).toString(),
    ]);
  });

  it("refuses a value the type's decimals cannot hold exactly, and a row of another block, writing nothing", async () => {
    const block = "21000200";
    state.lastBlock = block;
    state.pages = new Map([
      [1, page([partnerRow({ receiver: R1, block, vault: V1, points: "1.234" })], null)],
    ]);
    await expect(
      syncPartnerPoints(database, { ...LEGACY, url: partner.url, pointsType: "cents", typeDecimals: 2 }),
    ).rejects.toThrow(/page 1, row 1: points: amount has more than 2 decimals/);

    state.pages = new Map([
      [1, page([partnerRow({ receiver: R1, block: "5", vault: V1, points: "1" })], null)],
    ]);
    await expect(
      syncPartnerPoints(database, { ...LEGACY, url: partner.url, pointsType: "cents" }),
    ).rejects.toThrow(/page 1, row 1: block_number 5 in a snapshot of block 21000200/);
    expect(await database.query("select 1 from points_snapshots where points_type = 'cents'")).toEqual([]);
  });

  it("starts over when the partner has moved to a newer block since the failed run", async () => {
    state.lastBlock = "21000300";
    state.pages = new Map([
      [1, page([partnerRow({ receiver: R1, block: "21000300", vault: V1, points: "1" })], 2)],
      [2, page([partnerRow({ receiver: R2, block: "21000300", vault: V1, points: "2" })], null)],
    ]);
    state.failOnce = new Set([2]);
    await expect(
      syncPartnerPoints(database, { ...LEGACY, url: partner.url, pointsType: "moving" }),
    ).rejects.toThrow(/HTTP 500/);

    state.lastBlock = "21000400";
    state.pages = new Map([
      [1, page([partnerRow({ receiver: R3, block: "21000400", vault: V2, points: "3" })], null)],
    ]);
    const result = await syncPartnerPoints(database, { ...LEGACY, url: partner.url, pointsType: "moving" });
    expect(result).toMatchObject({ status: "synced", blockNumber: 21_000_400, resumed: false });
    expect(await balances("moving")).toEqual([
      { vault: V2, receiver: R3, receiver_type: "staker", points: (3n * 10n ** 18n).toString() },
    ]);
  });
});

/**
 * An offset-paged feed as the public implementations serve it: Symbiotic's points-template
 * (`/api/last_block`, `/api/all?block_number&offset&limit`, a flat array) or the same at the root.
 */
interface OffsetFeedState {
  prefix: "/api" | "";
  lastBlock: string;
  rows: string[];
  /** Offsets that answer 500 the first time they are asked for. */
  failOnce: Set<number>;
  requests: string[];
}

async function startOffsetFeed(state: OffsetFeedState): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://partner");
    state.requests.push(`${url.pathname}${url.search}`);
    response.setHeader("content-type", "application/json");
    if (url.pathname === `/feed${state.prefix}/last_block`) {
      response.end(`{"last_block_number":${state.lastBlock},"updated_at":"2026-11-25T00:00:00Z"}`);
      return;
    }
    const offset = url.searchParams.get("offset");
    const limit = url.searchParams.get("limit");
    if (
      url.pathname === `/feed${state.prefix}/all` &&
      url.searchParams.get("block_number") === state.lastBlock &&
      offset !== null &&
      limit !== null
    ) {
      if (state.failOnce.delete(Number(offset))) {
        response.statusCode = 500;
        response.end('{"error":"internal"}');
        return;
      }
      const slice = state.rows.slice(Number(offset), Number(offset) + Number(limit));
      response.end(`[${slice.join(",")}]`);
      return;
    }
    response.statusCode = 404;
    response.end('{"detail":"Not Found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/feed`, server };
}

describe.each(databaseKinds)("partner points sync, offset-paged feeds (%s)", (kind) => {
  let database: Database;
  const feeds: Server[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });

  afterAll(async () => {
    for (const server of feeds) await new Promise((resolve) => server.close(resolve));
    await database?.close();
  });

  const feed = async (prefix: "/api" | "", lastBlock: string, rows: string[]) => {
    const state: OffsetFeedState = { prefix, lastBlock, rows, failOnce: new Set(), requests: [] };
    const started = await startOffsetFeed(state);
    feeds.push(started.server);
    return { state, url: started.url };
  };

  const storedPoints = (pointsType: string) =>
    database.query<{ receiver: string; points: string }>(
      `select b.receiver, b.points::text as points
       from points_balances b join points_snapshots s on s.id = b.snapshot_id
       where s.points_type = $1 order by b.receiver`,
      [pointsType],
    );

  const rowsOf = (block: string, count: number) =>
    Array.from({ length: count }, (_, i) =>
      partnerRow({ receiver: address("c", i + 1), block, vault: V1, points: String(i + 1) }),
    );

  it("detects a points-template feed, pages it by offset and limit, and resumes at the offset that failed", async () => {
    const block = "22000000";
    const { state, url } = await feed("/api", block, [
      ...rowsOf(block, 4),
      // The last row: a JSON number beyond 2^53 in whole points.
      partnerRow({ receiver: R1, block, vault: V2, points: HUGE_WHOLE }),
    ]);
    state.failOnce = new Set([4]);
    const formats: string[] = [];
    const pages: string[] = [];
    const options = {
      url,
      pointsType: "template",
      feedDecimals: 0,
      pageSize: 2,
      onFormat: (format: string, at?: string) => formats.push(`${format} ${at}`),
      onPage: ({ at, rows }: { at: string; rows: number }) => pages.push(`${at}: ${rows}`),
    };

    await expect(syncPartnerPoints(database, options)).rejects.toThrow(
      /\/api\/all\?block_number=22000000&offset=4&limit=2: HTTP 500/,
    );
    expect(state.requests).toEqual([
      "/feed/api/last_block",
      `/feed/api/all?block_number=${block}&offset=0&limit=2`,
      `/feed/api/all?block_number=${block}&offset=2&limit=2`,
      `/feed/api/all?block_number=${block}&offset=4&limit=2`,
    ]);
    expect(await database.query("select feed_format, next_page, staged_rows from points_syncs")).toEqual([
      { feed_format: "points-template", next_page: 4, staged_rows: 4 },
    ]);
    state.requests.length = 0;

    // Resumed with another page size: the offset carries on where the staged rows end.
    const result = await syncPartnerPoints(database, { ...options, pageSize: 3 });
    expect(state.requests).toEqual([
      "/feed/api/last_block",
      `/feed/api/all?block_number=${block}&offset=4&limit=3`,
    ]);
    expect(formats).toEqual([
      `points-template ${url}/api/last_block`,
      `points-template ${url}/api/last_block`,
    ]);
    expect(pages).toEqual(["offset 0: 2", "offset 2: 2", "offset 4: 1"]);
    expect(result).toMatchObject({
      status: "synced",
      format: "points-template",
      blockNumber: 22_000_000,
      resumed: true,
      snapshot: { decimals: 18, inputRows: 5 },
    });
    const E18 = 10n ** 18n;
    expect(await storedPoints("template")).toEqual(
      [
        ...[1n, 2n, 3n, 4n].map((n) => ({ receiver: address("c", Number(n)), points: (n * E18).toString() })),
        { receiver: R1, points: (BigInt(HUGE_WHOLE) * E18).toString() },
      ].sort((a, b) => (a.receiver < b.receiver ? -1 : 1)),
    );
    expect(await database.query("select * from points_syncs")).toEqual([]);
  });

  it("detects a feed served at the root (no /api) and stops after a full page answered by an empty one", async () => {
    const block = "22000100";
    const { state, url } = await feed("", block, rowsOf(block, 2));
    const result = await syncPartnerPoints(database, {
      url,
      pointsType: "rooted",
      feedDecimals: 6,
      typeDecimals: 6,
      pageSize: 2,
    });
    expect(state.requests).toEqual([
      "/feed/api/last_block",
      "/feed/last_block",
      `/feed/all?block_number=${block}&offset=0&limit=2`,
      `/feed/all?block_number=${block}&offset=2&limit=2`,
    ]);
    expect(result).toMatchObject({ status: "synced", format: "root", resumed: false });
    expect((await storedPoints("rooted")).map((row) => row.points)).toEqual(["1", "2"]);
  });

  it("reads only the named format's endpoints, and refuses a feed whose answer is not that format's", async () => {
    const block = "22000200";
    const { state, url } = await feed("", block, rowsOf(block, 1));
    const result = await syncPartnerPoints(database, {
      url,
      pointsType: "named",
      feedDecimals: 0,
      feedFormat: "root",
    });
    expect(result).toMatchObject({ status: "synced", format: "root" });
    expect(state.requests[0]).toBe("/feed/last_block");
    expect(state.requests).not.toContain("/feed/api/last_block");

    await expect(
      syncPartnerPoints(database, {
        url,
        pointsType: "named2",
        feedDecimals: 0,
        feedFormat: "points-template",
      }),
    ).rejects.toThrow(`${url}/api/last_block: HTTP 404`);
    await expect(
      syncPartnerPoints(database, { url, pointsType: "named2", feedDecimals: 0, feedFormat: "legacy" }),
    ).rejects.toThrow(`${url}/last_block: expected {"last_block": <integer>} (feed format legacy)`);
  });

  it("names what it tried when no shape answers, and refuses a feed that ignores the limit", async () => {
    const { url } = await feed("/api", "1", []);
    await expect(
      syncPartnerPoints(database, { url: `${url}/nothing`, pointsType: "none", feedDecimals: 0 }),
    ).rejects.toThrow(
      `${url}/nothing: no External Points API feed found (/api/last_block: HTTP 404; /last_block: HTTP 404); ` +
        "name the format with --feed-format points-template|root|legacy",
    );

    const block = "22000300";
    const greedy = createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      if (request.url === "/api/last_block") return response.end(`{"last_block_number":${block}}`);
      response.end(`[${rowsOf(block, 3).join(",")}]`);
    });
    await new Promise<void>((resolve) => greedy.listen(0, "127.0.0.1", resolve));
    feeds.push(greedy);
    const greedyUrl = `http://127.0.0.1:${(greedy.address() as AddressInfo).port}`;
    await expect(
      syncPartnerPoints(database, { url: greedyUrl, pointsType: "greedy", feedDecimals: 0, pageSize: 2 }),
    ).rejects.toThrow(/offset=0&limit=2: 3 rows for a limit of 2/);
  });
});
