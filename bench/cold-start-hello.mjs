/**
 * Cold-start baseline for bench/run.mjs: a bare node:http server answering every request with a small JSON
 * body, started the same way as the `repohost web` binary so the two can be compared.
 *
 *   node bench/cold-start-hello.mjs <port>
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const body = JSON.stringify({ version: 'hello' });
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(port, '127.0.0.1');
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
