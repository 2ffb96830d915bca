// The fade rule against swappers who make their own orders unfillable to put the winning solver in cooldown (issue 26
// item 1), on anvil: each attack with three fresh swappers at 0.01 tRWA, the honest solver trying to fill where a
// fill is there to try. None of them may count a fade; honest orders of the same kind of swapper still do. And the
// breaker's floor: with every solver in cooldown, the least faded keeps quoting, loudly. On PGlite and PostgreSQL.
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  type LocalAccount,
  maxUint256,
  parseEther,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testERC20Abi, testERC1271WalletAbi, testERC1271WalletBytecode } from "../../src/chain/abis.ts";
import type { Database } from "../../src/db/client.ts";
import { OrderEvents } from "../../src/orders/order-events.ts";
import { OrderRepository, type OrderRow } from "../../src/orders/repository.ts";
import { OrderStats } from "../../src/scorecards/order-stats.ts";
import { useTestChain } from "../support/anvil.ts";
import { ManualClock } from "../support/clock.ts";
import { createTestDatabase, databaseKinds } from "../support/db.ts";
import { capturingLogger } from "../support/log-lines.ts";
import { newOrder } from "../support/order-rows.ts";
import {
  indexUntilCaughtUp,
  placeOrder,
  quoteRequestBody,
  sendFill,
  signedQuote,
} from "../support/orders.ts";
import { type ScriptedSolver, startScriptedSolver } from "../support/solver-server.ts";
import { createSwapTestApp, type SwapTestApp } from "../support/swap.ts";

// FIFO: a block's transactions in the order they were sent, so a test can put the solver's fill between two of the
// swapper's.
const chain = useTestChain({ anvil: { args: ["--order", "fifo"] } });
const MINUTE = 60_000;
const FADER = "ext_fader";
const BACKUP = "ext_backup";
/** The minimum amount of the issue's attacks: 0.01 tRWA. */
const AMOUNT = 10n ** 16n;
/** Gas for every transaction sent into a block mined by hand (no estimate against a block not mined yet). */
const GAS = 1_000_000n;

describe.each(databaseKinds)(
  "the fade rule against swappers who make their orders unfillable (%s)",
  (kind) => {
    const clock = new ManualClock(Date.now());
    let database: Database;
    let fader: ScriptedSolver;
    let backup: ScriptedSolver;
    let subject: SwapTestApp;
    let logLines: Array<{ level: number; msg: string; solverId?: string; alert?: string }>;

    // The fader bids best (99% of the input) and is the solver under attack; the backup bids 98%.
    const bid = (percent: bigint) => ({
      kind: "quote" as const,
      filler: chain.core.executors[0]!,
      amountOut: (request: { amount: string }) => (BigInt(request.amount) * percent) / 100n / 10n ** 12n,
    });

    beforeEach(async () => {
      database = await createTestDatabase(kind);
      fader = await startScriptedSolver(bid(99n));
      backup = await startScriptedSolver(bid(98n));
      clock.set(Number(await chain.now()) * 1000);
      const head = await chain.publicClient.getBlock({ blockTag: "latest" });
      await database.query(
        "insert into indexed_blocks (number, hash, parent_hash, timestamp) values ($1, $2, $3, $4)",
        [head.number.toString(), head.hash, head.parentHash, head.timestamp.toString()],
      );
      const captured = capturingLogger<(typeof logLines)[number]>();
      logLines = captured.lines;
      const { logger } = captured;
      subject = await createSwapTestApp(chain, database, {
        clock,
        logger,
        solvers: [
          { id: FADER, endpoint: fader.url },
          { id: BACKUP, endpoint: backup.url },
        ],
      });
    });

    afterEach(async () => {
      await subject.close();
      await fader.close();
      await backup.close();
      await database.close();
    });

    const cooldowns = () => subject.sluice.deployment!.cooldowns;
    const index = () => indexUntilCaughtUp(subject.runtime.indexer);
    const outcomes = async () =>
      (
        await database.query<{ outcome: string }>("select outcome from solver_order_outcomes order by id")
      ).map((row) => row.outcome);

    const waitFor = async (hash: Hex) => {
      const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
      return receipt;
    };

    /** A new account with ETH for gas and `rwa` of tRWA (from the deployment's funded swapper). */
    const freshAccount = async (rwa = AMOUNT): Promise<LocalAccount> => {
      const account = privateKeyToAccount(generatePrivateKey());
      await chain.testClient.setBalance({ address: account.address, value: parseEther("10") });
      if (rwa > 0n) await sendRwa(chain.accounts.swapper, account.address, rwa);
      return account;
    };
    const sendRwa = async (from: LocalAccount, to: Address, amount: bigint) =>
      waitFor(
        await chain.wallet(from).writeContract({
          address: chain.core.tokens.rwa,
          abi: testERC20Abi,
          functionName: "transfer",
          args: [to, amount],
        }),
      );
    const approve = (swapper: LocalAccount, amount: bigint) =>
      chain.wallet(swapper).writeContract({
        address: chain.core.tokens.rwa,
        abi: testERC20Abi,
        functionName: "approve",
        args: [chain.core.reactor, amount],
        gas: GAS,
      });
    /**
     * Three fresh swappers, the Reactor approved, each holding exactly 0.01 tRWA, and the indexer at the head. With
     * `unindexedFunding`, their tRWA arrives in blocks the indexer has not reached when their orders come (a wallet
     * funded just before it swaps).
     */
    const freshSwappers = async (options: { unindexedFunding?: boolean } = {}) => {
      const swappers: LocalAccount[] = [];
      for (let i = 0; i < 3; i++) {
        const swapper = await freshAccount(0n);
        await waitFor(await approve(swapper, maxUint256));
        swappers.push(swapper);
      }
      if (options.unindexedFunding) await index();
      for (const swapper of swappers) await sendRwa(chain.accounts.swapper, swapper.address, AMOUNT);
      if (!options.unindexedFunding) await index();
      return swappers;
    };

    /** Sends each transaction in turn into one block, mines it, and answers their statuses in that order. */
    const inOneBlock = async (sends: ReadonlyArray<() => Promise<Hex>>) => {
      const hashes: Hex[] = [];
      await chain.testClient.setAutomine(false);
      try {
        for (const send of sends) hashes.push(await send());
        await chain.mine(1);
      } finally {
        await chain.testClient.setAutomine(true);
      }
      const receipts = await Promise.all(
        hashes.map((hash) => chain.publicClient.waitForTransactionReceipt({ hash })),
      );
      expect(new Set(receipts.map((receipt) => receipt.blockNumber)).size).toBe(1);
      return receipts.map((receipt) => receipt.status);
    };

    const won = (row: OrderRow) => {
      expect(row.solverId).toBe(FADER);
      return row;
    };

    /** Lets every open order expire (an indexed block past its deadline) and answers the outcomes. */
    const expireAll = async () => {
      await chain.increaseTime(200);
      clock.set(Number(await chain.now()) * 1000);
      await index();
      const statuses = await database.query<{ status: string }>("select status from orders");
      expect(statuses.map((row) => row.status)).toEqual(statuses.map(() => "expired"));
      return outcomes();
    };

    const expectNobodyCooled = () => {
      expect(cooldowns().view.cooldownOf(FADER)).toBeNull();
      expect(cooldowns().view.cooldownOf(BACKUP)).toBeNull();
    };

    // Their funding, in blocks before their quotes, is no excuse: no fill can be in a block mined before the order.
    it("honest orders of fresh swappers that the winner never fills still cool it (the control)", async () => {
      const swappers = await freshSwappers({ unindexedFunding: true });
      for (const swapper of swappers)
        won(await placeOrder(chain, subject.app, database, { swapper, amount: AMOUNT }));
      expect(await expireAll()).toEqual(["faded", "faded", "faded"]);
      expect(cooldowns().view.cooldownOf(FADER)?.reason).toBe(
        "faded 3 of its last 3 assigned orders that ended",
      );
    });

    describe("/quote refuses an output nobody can be paid", () => {
      const quoteTo = (swapper: Address, recipient?: Address) =>
        subject.app.inject({
          method: "POST",
          url: "/api/v1/quote",
          payload: {
            ...quoteRequestBody(chain, { amount: AMOUNT, swapper }),
            outputs: [{ token: chain.core.tokens.usd, ...(recipient ? { recipient } : {}) }],
          },
        });

      it("the zero address, for three swappers: no order, no fade", async () => {
        for (const swapper of await freshSwappers()) {
          const response = await quoteTo(swapper.address, zeroAddress);
          expect(response.statusCode).toBe(400);
          expect(response.json().error).toMatchObject({
            code: "VALIDATION_FAILED",
            details: {
              issues: [
                {
                  path: "outputs.0.recipient",
                  message: "cannot receive an output: the token refuses transfers to the zero address",
                },
              ],
            },
          });
        }
        expect(fader.requests).toHaveLength(0);
        expectNobodyCooled();
      });

      it("the deployment's own contracts, named or as the swapper", async () => {
        const { core } = chain;
        for (const contract of [
          core.reactor,
          core.executors[0]!,
          core.adapterFactory,
          core.adapters.usd,
          core.tokens.usd,
          core.tokens.rwa,
        ]) {
          const named = await quoteTo(chain.accounts.swapper.address, contract);
          expect(named.statusCode).toBe(400);
          expect(named.json().error.details.issues).toEqual([
            {
              path: "outputs.0.recipient",
              message: "cannot receive an output: it is one of this deployment's contracts",
            },
          ]);
        }
        const asSwapper = await quoteTo(core.reactor);
        expect(asSwapper.statusCode).toBe(400);
        expect(asSwapper.json().error.details.issues[0].path).toBe("swapper");
        // A wallet of its own is quoted as before.
        expect((await quoteTo(chain.accounts.swapper.address, chain.accounts.other.address)).statusCode).toBe(
          200,
        );
      });

      it("an order stored with a zero recipient (before the check) is excused: the token refuses it", async () => {
        const repository = new OrderRepository(database, new OrderEvents(), new OrderStats());
        const swappers = await freshSwappers();
        for (const swapper of swappers) {
          const now = clock.now();
          const usd = chain.core.tokens.usd.toLowerCase();
          await repository.createOnce(
            newOrder(FADER, now, {
              swapper: swapper.address.toLowerCase(),
              tokenIn: chain.core.tokens.rwa.toLowerCase(),
              tokenOut: usd,
              amountIn: AMOUNT.toString(),
              deadline: Math.floor(now.getTime() / 1000) + 120,
              outputs: [{ token: usd, recipient: zeroAddress, amount: "9900" }],
            }),
          );
        }
        await chain.mine(1);
        await index();
        expect(await expireAll()).toEqual(["excused", "excused", "excused"]);
        expectNobodyCooled();
      });
    });

    it("an ERC-1271 wallet that changes its owner after /order", async () => {
      for (let i = 0; i < 3; i++) {
        const owner = await freshAccount(0n);
        const receipt = await waitFor(
          await chain.wallet(owner).deployContract({
            abi: testERC1271WalletAbi,
            bytecode: testERC1271WalletBytecode,
            args: [owner.address],
          }),
        );
        const wallet = getAddress(receipt.contractAddress!);
        await sendRwa(chain.accounts.swapper, wallet, AMOUNT);
        await waitFor(
          await chain.wallet(owner).writeContract({
            address: wallet,
            abi: testERC1271WalletAbi,
            functionName: "execute",
            args: [
              chain.core.tokens.rwa,
              0n,
              encodeFunctionData({
                abi: testERC20Abi,
                functionName: "approve",
                args: [chain.core.reactor, maxUint256],
              }),
            ],
          }),
        );
        await index();
        const signed = await signedQuote(chain, subject.app, {
          swapper: owner,
          swapperAddress: wallet,
          amount: AMOUNT,
        });
        const row = won(await postOrder(signed));
        // The owner moves on: the signature it gave no longer passes the wallet, and the honest fill reverts.
        await waitFor(
          await chain.wallet(owner).writeContract({
            address: wallet,
            abi: testERC1271WalletAbi,
            functionName: "transferOwnership",
            args: [chain.accounts.other.address],
          }),
        );
        expect(await inOneBlock([() => sendFill(chain, row, { gas: GAS })])).toEqual(["reverted"]);
      }
      expect(await expireAll()).toEqual(["excused", "excused", "excused"]);
      expectNobodyCooled();
    });

    describe("an account that gives itself code with EIP-7702 after /order", () => {
      /** A contract whose isValidSignature refuses everything when it runs as a delegated account's code. */
      const deployRefusingCode = async () => {
        const receipt = await waitFor(
          await chain.wallet(chain.accounts.other).deployContract({
            abi: testERC1271WalletAbi,
            bytecode: testERC1271WalletBytecode,
            args: [chain.accounts.other.address],
          }),
        );
        return getAddress(receipt.contractAddress!);
      };
      const delegate = async (swapper: LocalAccount, to: Address, nonce: number) => {
        const sponsor = chain.wallet(chain.accounts.other);
        const authorization = await sponsor.signAuthorization({
          account: swapper,
          contractAddress: to,
          nonce,
        });
        return sponsor.sendTransaction({
          authorizationList: [authorization],
          to: swapper.address,
          data: "0x",
          gas: GAS,
        });
      };
      const nonceOf = (swapper: LocalAccount) =>
        chain.publicClient.getTransactionCount({ address: swapper.address, blockTag: "pending" });

      it("and keeps it: the Reactor asks ERC-1271, which refuses", async () => {
        const code = await deployRefusingCode();
        for (const swapper of await freshSwappers()) {
          const row = won(await placeOrder(chain, subject.app, database, { swapper, amount: AMOUNT }));
          await waitFor(await delegate(swapper, code, await nonceOf(swapper)));
          expect(await inOneBlock([() => sendFill(chain, row, { gas: GAS })])).toEqual(["reverted"]);
        }
        expect(await expireAll()).toEqual(["excused", "excused", "excused"]);
        expectNobodyCooled();
      });

      it("only around the solver's fill, inside one block: no code at any block's end", async () => {
        const code = await deployRefusingCode();
        for (const swapper of await freshSwappers()) {
          const row = won(await placeOrder(chain, subject.app, database, { swapper, amount: AMOUNT }));
          const nonce = await nonceOf(swapper);
          expect(
            await inOneBlock([
              () => delegate(swapper, code, nonce),
              () => sendFill(chain, row, { gas: GAS }),
              () => delegate(swapper, zeroAddress, nonce + 1),
            ]),
          ).toEqual(["success", "reverted", "success"]);
          expect(await chain.publicClient.getCode({ address: swapper.address })).toBeUndefined();
        }
        await index();
        expect(await expireAll()).toEqual(["excused", "excused", "excused"]);
        expectNobodyCooled();
      });
    });

    describe("the swapper's funding taken away and put back inside the block of the solver's fill", () => {
      it("the allowance", async () => {
        for (const swapper of await freshSwappers()) {
          const row = won(await placeOrder(chain, subject.app, database, { swapper, amount: AMOUNT }));
          expect(
            await inOneBlock([
              () => approve(swapper, 0n),
              () => sendFill(chain, row, { gas: GAS }),
              () => approve(swapper, maxUint256),
            ]),
          ).toEqual(["success", "reverted", "success"]);
        }
        expect(await expireAll()).toEqual(["excused", "excused", "excused"]);
        expectNobodyCooled();
      });

      it("the balance", async () => {
        const friend = await freshAccount(0n);
        const move = (from: LocalAccount, to: Address) => () =>
          chain.wallet(from).writeContract({
            address: chain.core.tokens.rwa,
            abi: testERC20Abi,
            functionName: "transfer",
            args: [to, AMOUNT],
            gas: GAS,
          });
        for (const swapper of await freshSwappers()) {
          const row = won(await placeOrder(chain, subject.app, database, { swapper, amount: AMOUNT }));
          expect(
            await inOneBlock([
              move(swapper, friend.address),
              () => sendFill(chain, row, { gas: GAS }),
              move(friend, swapper.address),
            ]),
          ).toEqual(["success", "reverted", "success"]);
        }
        expect(await expireAll()).toEqual(["excused", "excused", "excused"]);
        expectNobodyCooled();
      });
    });

    it("with every solver in cooldown, the least faded keeps quoting, with an error line and a metric", async () => {
      const quoted = async () => {
        const response = await subject.app.inject({
          method: "POST",
          url: "/api/v1/quote",
          payload: quoteRequestBody(chain, { amount: AMOUNT, swapper: chain.accounts.swapper.address }),
        });
        expect(response.statusCode).toBe(200);
        return response.json().quotes.map((entry: { solver: { id: string } }) => entry.solver.id);
      };
      const floorMetric = async () => {
        const metrics = await subject.internal.inject({ method: "GET", url: "/metrics" });
        return Object.fromEntries(
          metrics.body
            .split("\n")
            .filter((line) => line.startsWith("sluice_fade_breaker_floor{"))
            .map((line) => [line.slice(line.indexOf('"') + 1, line.lastIndexOf('"')), line.split(" ")[1]]),
        );
      };
      const fadeThree = async (winner: string) => {
        for (const swapper of await freshSwappers()) {
          const row = await placeOrder(chain, subject.app, database, { swapper, amount: AMOUNT });
          expect(row.solverId).toBe(winner);
        }
        await chain.increaseTime(200);
        clock.set(Number(await chain.now()) * 1000);
        await index();
      };

      // The fader is cooled first, then the backup, which wins everything meanwhile and never fills either.
      await fadeThree(FADER);
      expect(cooldowns().view.isCoolingDown(FADER)).toBe(true);
      expect(await quoted()).toEqual([BACKUP]);
      expect(await floorMetric()).toEqual({ [FADER]: "0", [BACKUP]: "0" });
      clock.advance(MINUTE);
      await fadeThree(BACKUP);
      expect(cooldowns().view.isCoolingDown(BACKUP)).toBe(true);

      // Both in cooldown: the fader's ends first, so it is asked; the venue still quotes.
      expect(await quoted()).toEqual([FADER]);
      expect(cooldowns().view.cooldownOf(FADER)).not.toBeNull();
      expect(await floorMetric()).toEqual({ [FADER]: "1", [BACKUP]: "0" });
      const raised = logLines.filter((line) => line.alert === "SluiceFadeBreakerFloor");
      expect(raised).toEqual([
        expect.objectContaining({
          level: 50,
          solverId: FADER,
          msg: "every eligible solver is in cooldown: the fade breaker keeps asking the least faded",
        }),
      ]);

      // The fader's cooldown ends: the floor is lifted (once, logged), and the backup stays out.
      clock.set(cooldowns().view.cooldownOf(FADER)!.until.getTime() + 1000);
      expect(await quoted()).toEqual([FADER]);
      expect(await floorMetric()).toEqual({ [FADER]: "0", [BACKUP]: "0" });
      expect(
        logLines.filter((line) => line.alert === "SluiceFadeBreakerFloor").map((line) => line.msg),
      ).toEqual([
        "every eligible solver is in cooldown: the fade breaker keeps asking the least faded",
        "a solver is out of cooldown: the fade breaker's floor is lifted",
      ]);

      // An operator's cooldown is never overridden: with both solvers set by the operator, nobody quotes.
      for (const solverId of [FADER, BACKUP])
        await cooldowns().repository.set(
          solverId,
          new Date(clock.now().getTime() + 60 * MINUTE),
          clock.now(),
        );
      await cooldowns().view.refresh();
      const none = await subject.app.inject({
        method: "POST",
        url: "/api/v1/quote",
        payload: quoteRequestBody(chain, { amount: AMOUNT, swapper: chain.accounts.swapper.address }),
      });
      expect(none.statusCode).toBe(404);
    });

    const postOrder = async (signed: Awaited<ReturnType<typeof signedQuote>>) => {
      const response = await subject.app.inject({
        method: "POST",
        url: "/api/v1/order",
        payload: { quote: signed.quote, signature: signed.signature },
      });
      expect(response.statusCode).toBe(200);
      const row = await new OrderRepository(database, new OrderEvents(), new OrderStats()).findById(
        response.json().orderId,
      );
      return row!;
    };
  },
);
