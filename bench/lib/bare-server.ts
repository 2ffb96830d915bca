// The baseline every benchmark figure is divided by: one Fastify route, no database, a small JSON body.
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ status: "ok", items: [1, 2, 3] }));
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ msg: "bare listening", url: `http://127.0.0.1:${port}/bare` })}\n`);
process.once("SIGTERM", () => app.close().then(() => process.exit(0)));
