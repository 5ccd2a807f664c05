// Loopback ports for tests.
import * as net from "net";

/** A loopback port nothing listens on (it was free a moment ago). */
export async function unusedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
}
