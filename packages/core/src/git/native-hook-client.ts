/**
 * The program the pre-receive hook runs with node when the server asked for a push check (`hookCallback`): it
 * sends the hook's input (the `<old> <new> <ref>` lines) and the quarantine variables to the server's loopback
 * endpoint with the push's secret, prints the server's message (the client sees it as `remote: …`) and exits 0
 * only when the server allowed the push. Anything that goes wrong refuses the push: a check that could not run
 * must not let a protected ref move. CommonJS, no dependencies: it starts as fast as node can.
 */
export const HOOK_CLIENT_SCRIPT = `'use strict';
const net = require('node:net');
const endpoint = process.env.REPOHOST_HOOK_ENDPOINT || '';
const colon = endpoint.lastIndexOf(':');
const fail = (message) => {
  process.stderr.write(message + '\\n');
  process.exit(1);
};
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const request = JSON.stringify({
    token: process.env.REPOHOST_HOOK_TOKEN || '',
    updates: Buffer.concat(chunks).toString('utf8'),
    env: {
      GIT_OBJECT_DIRECTORY: process.env.GIT_OBJECT_DIRECTORY || '',
      GIT_ALTERNATE_OBJECT_DIRECTORIES: process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES || '',
      GIT_QUARANTINE_PATH: process.env.GIT_QUARANTINE_PATH || '',
    },
  });
  const socket = net.connect({ host: endpoint.slice(0, colon), port: Number(endpoint.slice(colon + 1)) });
  const answer = [];
  socket.setTimeout(120000, () => {
    socket.destroy();
    fail('the server did not check this push in time');
  });
  socket.on('connect', () => socket.end(request + '\\n'));
  socket.on('data', (chunk) => answer.push(chunk));
  socket.on('error', () => fail('the server could not check this push'));
  socket.on('end', () => {
    let reply;
    try {
      reply = JSON.parse(Buffer.concat(answer).toString('utf8'));
    } catch {
      fail('the server could not check this push');
      return;
    }
    if (reply && reply.ok === true) process.exit(0);
    fail(reply && typeof reply.message === 'string' ? reply.message : 'the push was refused');
  });
});
`;
