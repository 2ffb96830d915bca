// jsonRecordset: rows written through json_to_recordset with the column lists derived from the drizzle table read
// back as drizzle wrote them — timestamps, 64-bit integers, numerics, JSON, nulls and absent optional values — and
// the serial column is the database's.
import { bigint, bigserial, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { jsonRecordset } from "../../src/db/json-recordset.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";

const samples = pgTable("json_recordset_samples", {
  id: bigserial("id", { mode: "bigint" }).primaryKey(),
  name: text("name").notNull(),
  amount: numeric("amount", { precision: 78, scale: 0 }).notNull(),
  block: bigint("block", { mode: "bigint" }),
  deadline: bigint("deadline", { mode: "number" }).notNull(),
  legs: jsonb("legs").$type<Array<{ token: string; amount: string }>>(),
  note: text("note"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
});

describe.each(databaseKinds)("jsonRecordset (%s)", (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.query(`create table json_recordset_samples (
      id bigserial primary key, name text not null, amount numeric(78, 0) not null, block bigint,
      deadline bigint not null, legs jsonb, note text, created_at timestamptz not null)`);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("inserts rows as drizzle reads them back, with the serial left to the database", async () => {
    const records = jsonRecordset(samples);
    expect(records.columns).toBe("name, amount, block, deadline, legs, note, created_at");
    const rows = [
      {
        name: 'quoted "name", with a comma, a backslash \\, a tab \t, a line break \n and “ü”',
        amount: (2n ** 255n).toString(),
        block: 2n ** 62n,
        deadline: 1_900_000_000,
        legs: [{ token: "0xabc", amount: "1" }],
        note: null,
        createdAt: new Date(Date.UTC(2026, 5, 1, 12, 30, 45, 678)),
      },
      { name: "sparse", amount: "0", deadline: 0, createdAt: new Date(Date.UTC(2026, 0, 1)) },
    ];
    await database.query(
      `insert into json_recordset_samples (${records.columns})
       select ${records.select("r")} from ${records.recordset("$1")} as r(${records.definitions})`,
      [records.json(rows)],
    );
    const stored = await database.db.select().from(samples).orderBy(samples.id);
    expect(stored).toEqual([
      { id: stored[0]!.id, ...rows[0] },
      { id: stored[0]!.id + 1n, ...rows[1], block: null, legs: null, note: null },
    ]);
  });
});
