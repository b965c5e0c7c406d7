// A TCP proxy in front of a server (Postgres, in the database outage tests) that a test owns and can
// cut: every connection through it is dropped and new ones are refused until listen() is called
// again, on the same port. The target itself is never touched.
import { connect, createServer, type Server, type Socket } from "node:net";

export class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** 0 until the first listen() picks a free port; later listens reuse it. */
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    const server = createServer((socket) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const end of [socket, upstream]) {
        this.sockets.add(end);
        end.on("close", () => this.sockets.delete(end));
        end.on("error", () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}
