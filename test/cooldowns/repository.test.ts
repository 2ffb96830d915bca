// The stored cooldown state: starts that double within the repeat window and start over after it, the operator's
// set and lift (which resets the doubling and the counts), ends recorded once however many replicas see them, and
// the history of every start and end. On PGlite and PostgreSQL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SolverCooldowns } from "../../src/cooldowns/cooldowns.ts";
import { CooldownRepository } from "../../src/cooldowns/repository.ts";
import type { Database } from "../../src/db/client.ts";
import { CooldownConfigSchema } from "../../src/deployment/schema.ts";
import { silentLogger } from "../../src/logger.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const config = CooldownConfigSchema.parse({});

describe.each(databaseKinds)("stored solver cooldowns (%s)", (kind) => {
  let database: Database;
  let repository: CooldownRepository;
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 12));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    repository = new CooldownRepository(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    clock.set(Date.UTC(2026, 10, 27, 12));
    await database.query("truncate solver_cooldowns, solver_cooldown_events");
  });

  const start = (solverId = "ext_a") =>
    database.db.transaction((tx) => repository.startAutomatic(tx, solverId, "test", clock.now(), config));
  const minutesLeft = async (solverId = "ext_a") => {
    const [row] = await database.query<{ until: Date | null }>(
      "select cooldown_until as until from solver_cooldowns where solver_id = $1",
      [solverId],
    );
    return row?.until ? (new Date(row.until).getTime() - clock.now().getTime()) / MINUTE : null;
  };
  const events = async (solverId = "ext_a") =>
    (await repository.history(solverId)).map((event) => [event.kind, event.reason, event.at.toISOString()]);

  it("doubles a repeat within 24 h of the last end and starts over after a clean window", async () => {
    await start();
    expect(await minutesLeft()).toBe(15);
    // A second start while one runs changes nothing.
    expect(await start()).toEqual([]);
    clock.advance(15 * MINUTE);
    await start();
    expect(await minutesLeft()).toBe(30);
    clock.advance(30 * MINUTE + 24 * HOUR);
    await start();
    expect(await minutesLeft()).toBe(60);
    clock.advance(60 * MINUTE + 24 * HOUR + 1);
    await start();
    expect(await minutesLeft()).toBe(15);
    // Every start, and each elapsed end at its own time, in the history.
    expect((await events()).map(([kind]) => kind)).toEqual([
      "start",
      "end",
      "start",
      "end",
      "start",
      "end",
      "start",
    ]);
    expect((await events())[1]).toEqual(["end", "elapsed (test)", "2026-11-27T12:15:00.000Z"]);
  });

  it("lets the operator set a cooldown and lift it, the lift resetting the doubling", async () => {
    await start();
    clock.advance(15 * MINUTE);
    await start();
    expect(await minutesLeft()).toBe(30);
    await repository.lift("ext_a", clock.now());
    expect(await minutesLeft()).toBeNull();
    await start();
    expect(await minutesLeft()).toBe(15);

    await repository.set("ext_b", new Date(clock.now().getTime() + 5 * HOUR), clock.now());
    expect(await minutesLeft("ext_b")).toBe(300);
    expect(await events("ext_b")).toEqual([["start", "set by the operator", clock.now().toISOString()]]);
    await repository.lift("ext_b", clock.now());
    expect((await events("ext_b")).map(([kind, reason]) => [kind, reason])).toEqual([
      ["start", "set by the operator"],
      ["end", "lifted by the operator"],
    ]);
  });

  it("records an elapsed cooldown's end once, however many replicas refresh at once", async () => {
    await start();
    const replicas = Array.from(
      { length: 4 },
      () => new SolverCooldowns(repository, clock, silentLogger(), config),
    );
    await Promise.all(replicas.map((replica) => replica.refresh()));
    for (const replica of replicas) expect(replica.cooldownOf("ext_a")?.reason).toBe("test");
    clock.advance(15 * MINUTE);
    for (const replica of replicas) expect(replica.cooldownOf("ext_a")).toBeNull();
    await Promise.all(replicas.map((replica) => replica.refresh()));
    expect((await events()).map(([kind]) => kind)).toEqual(["start", "end"]);
  });
});
