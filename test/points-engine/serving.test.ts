// /points/* for the own type on a replica that does not run the engine: every receiver valued from the stored records
// equals the engine's own ledger; the answers carry the own type beside a partner type in the spec's shapes, "current"
// at the engine's position and historical answers from its nearest snapshot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { silentLogger } from "../../src/logger.ts";
import { PointsRepository } from "../../src/points/repository.ts";
import {
  PointsByReceiverListSchema,
  PointsByReceiverTypeListSchema,
  PointsByVaultListSchema,
} from "../../src/points/schemas.ts";
import { PointsService } from "../../src/points/service.ts";
import { PointsLedger } from "../../src/points-engine/ledger/points-ledger.ts";
import { EnginePositionWatch } from "../../src/points-engine/position-watch.ts";
import { OwnPoints } from "../../src/points-engine/serving.ts";
import { loadSnapshot, row } from "../points/support.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import {
  CURATOR,
  OPERATORS,
  SCOPE,
  ScriptedPointsChain,
  STAKERS,
  scopedLedgers,
  VAULTS,
} from "../support/points-chain.ts";
import { followerOn, followToHead } from "./engine-state.ts";

describe.each(databaseKinds)("own points served (%s)", { timeout: 180_000 }, (kind) => {
  let database: Database;
  let chain: ScriptedPointsChain;
  let ledger: PointsLedger;
  let own: OwnPoints;
  let position: EnginePositionWatch;
  let service: PointsService;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    chain = ScriptedPointsChain.generate(21, 45);
    await followToHead(database, followerOn(database, chain, { maxBlocksPerStep: 8 }));
    // The same history through a ledger in memory: what the engine's process would answer.
    ledger = PointsLedger.create(SCOPE, {
      block: 0n,
      timestamp: chain.blocks[0]!.timestamp,
      accrualStartBlock: 1n,
    });
    for (const block of chain.blocks.slice(1))
      ledger.step({ number: block.number, timestamp: block.timestamp, events: block.events });
    position = new EnginePositionWatch(database, silentLogger());
    await position.start();
    own = new OwnPoints(database, "sluice", new Set(VAULTS), async () => scopedLedgers, position);
    await loadSnapshot(database, "apartner", 30, [row(VAULTS[0]!, STAKERS[0]!, 5n)]);
    service = new PointsService(new PointsRepository(database), database, new ManualClock(), { own });
  });
  afterAll(async () => {
    await position.stop();
    await database.close();
  });

  const receivers = [...STAKERS, ...OPERATORS, CURATOR, ...VAULTS, SCOPE.networks[0]!.address];

  it("values every receiver from the stored records as the engine's ledger does", async () => {
    let valued = 0;
    for (const receiver of receivers) {
      const expected = new Map<string, bigint>();
      for (const entry of ledger.receiverPoints(receiver))
        expected.set(entry.vault, (expected.get(entry.vault) ?? 0n) + entry.points);
      const got = await own.receiverPoints(receiver);
      expect(new Map(got.map((item) => [item.vault, item.points]))).toEqual(
        new Map([...expected].filter(([, points]) => points > 0n)),
      );
      valued += got.length;
    }
    expect(valued).toBeGreaterThan(5);
    for (const vault of VAULTS) {
      const listed = await own.vaultReceivers(vault);
      const total = ledger.snapshot().vaults.find((v) => v.vault === vault)!.total;
      expect(listed.reduce((sum, item) => sum + item.points, 0n)).toBe(total);
      expect(total).toBeGreaterThan(0n);
    }
  });

  it("answers the totals at the position and at the nearest snapshot, beside the partner type", async () => {
    const current = PointsByVaultListSchema.parse(JSON.parse((await service.totals("current")).toString()));
    expect(current.map((record) => [record.points_type, record.last_block])).toEqual([
      ["apartner", 30],
      ["sluice", 45],
    ]);
    expect(BigInt(current[1]!.total_points)).toBe(ledger.snapshot().total);
    const historical = PointsByVaultListSchema.parse(JSON.parse((await service.totals(24)).toString()));
    // Snapshots every 10 blocks: 24 is nearest 20.
    expect(historical.find((record) => record.points_type === "sluice")!.last_block).toBe(20);
    const tie = PointsByVaultListSchema.parse(JSON.parse((await service.totals(25)).toString()));
    expect(tie.find((record) => record.points_type === "sluice")!.last_block).toBe(20);
  });

  it("answers a vault per receiver type and per receiver, and a receiver per vault", async () => {
    const vault = VAULTS[1]!;
    const types = PointsByReceiverTypeListSchema.parse(
      JSON.parse((await service.vaultByReceiverType(vault, 40)).toString()),
    );
    const sluice = types.find((record) => record.points_type === "sluice")!;
    expect(sluice.last_block).toBe(40);
    expect(sluice.items.map((item) => item.receiver_type)).toEqual(
      [...sluice.items.map((item) => item.receiver_type)].sort(),
    );
    const answer = await service.vaultByReceiver(vault);
    let text = Buffer.isBuffer(answer) ? answer.toString() : "";
    if (!Buffer.isBuffer(answer)) for await (const piece of answer) text += piece;
    const list = PointsByReceiverListSchema.parse(JSON.parse(text));
    const record = list.find((entry) => entry.points_type === "sluice")!;
    expect(record.last_block).toBe(45);
    expect(BigInt(record.total_points)).toBe(ledger.snapshot().vaults.find((v) => v.vault === vault)!.total);
    expect(record.items.reduce((sum, item) => sum + BigInt(item.points), 0n)).toBe(
      BigInt(record.total_points),
    );
    const staker = record.items.find((item) => STAKERS.includes(item.receiver_address))!.receiver_address;
    const byVault = PointsByVaultListSchema.parse(
      JSON.parse((await service.receiverCurrent(staker)).toString()),
    );
    const ownRecord = byVault.find((entry) => entry.points_type === "sluice")!;
    expect(ownRecord.items.find((item) => item.vault_address === vault)!.points).toBe(
      record.items.find((item) => item.receiver_address === staker)!.points,
    );
  });
});
