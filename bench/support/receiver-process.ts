import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The webhook subscriber of the benchmark, in a process of its own (as a real
 * receiver would be): sharing the load generator's event loop, its answers were
 * delayed by the generator's own work. It answers 200 at once and reports the
 * first receipt of each entity id to the parent over IPC, stamped with
 * performance.timeOrigin + performance.now() (the same clock as the parent's).
 */
const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    res.writeHead(200).end();
    const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { data: { id: string } };
    process.send?.({ id: body.data.id, at });
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
