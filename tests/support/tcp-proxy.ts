import net, { type AddressInfo } from "node:net";

/**
 * A TCP relay in front of a service (Postgres, the Auth emulator) that a test can cut and restore,
 * the way a database restart or a network outage looks to the app: open connections drop and new
 * ones are refused until it is back.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;

  function listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const relay = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("error", () => socket.destroy());
          socket.on("close", () => {
            sockets.delete(socket);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      relay.once("error", reject);
      relay.listen(port, "127.0.0.1", () => {
        server = relay;
        resolve((relay.address() as AddressInfo).port);
      });
    });
  }

  async function cut() {
    const relay = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (relay) await new Promise<void>((resolve) => relay.close(() => resolve()));
  }

  const port = await listen(0);
  return {
    port,
    host: `127.0.0.1:${port}`,
    cut,
    /** Accepts connections again, on the same port. */
    restore: () => listen(port).then(() => undefined),
    close: cut,
  };
}
