// The part of `ws` (a devDependency, which ships no types) the bench node uses.
declare module "ws" {
  import type { Server } from "node:http";
  export interface WebSocket {
    send(data: string): void;
    on(event: "message", listener: (data: Buffer) => void): void;
    on(event: "close", listener: () => void): void;
  }
  export class WebSocketServer {
    constructor(options: { server: Server });
    on(event: "connection", listener: (socket: WebSocket) => void): void;
  }
}
