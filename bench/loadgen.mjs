/**
 * Closed-loop HTTP load generator, run as a child process of bench/run.mjs (so it never shares an event loop
 * with the server it measures). It receives one job over IPC:
 *   { url, connections, warmupMs, durationMs, headers?, paths? }
 * (`paths`: paths on `url`'s server requested in turn instead of `url` itself, so that a measurement is not of
 * one answer repeated), keeps `connections` keep-alive connections busy (each sends its next request as soon as
 * the previous answer has been read completely), and sends back throughput and latency figures for the measured
 * window.
 */
import http from 'node:http';

/** Latency percentile (nearest rank) of a sorted Float64Array, in milliseconds. */
function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

async function run({ url, connections, warmupMs, durationMs, headers = {}, paths }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const rotation = paths && paths.length > 0 ? paths : [target.pathname + target.search];
  let nextPath = 0;
  const options = {
    agent,
    host: target.hostname,
    port: Number(target.port),
    path: target.pathname + target.search,
    method: 'GET',
    headers: { accept: 'application/json', ...headers },
  };
  let latencies = new Float64Array(1 << 16);
  let measured = 0;
  let errors = 0;
  let warmupRequests = 0;
  const statuses = {};

  const begin = process.hrtime.bigint();
  const warmEnd = begin + BigInt(warmupMs) * 1_000_000n;
  const end = warmEnd + BigInt(durationMs) * 1_000_000n;

  /** One request; resolves with the status code (0 on a transport error) after the body is consumed. */
  const once = () =>
    new Promise((resolve) => {
      const path = rotation[nextPath];
      nextPath = (nextPath + 1) % rotation.length;
      const req = http.request({ ...options, path }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });

  const worker = async () => {
    for (;;) {
      const started = process.hrtime.bigint();
      if (started >= end) return;
      const status = await once();
      const finished = process.hrtime.bigint();
      // Only requests that both start and finish inside the measured window count.
      if (started < warmEnd || finished > end) {
        if (started < warmEnd) warmupRequests += 1;
        continue;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 200) {
        errors += 1;
        continue;
      }
      if (measured === latencies.length) {
        const bigger = new Float64Array(latencies.length * 2);
        bigger.set(latencies);
        latencies = bigger;
      }
      latencies[measured++] = Number(finished - started) / 1e6;
    }
  };

  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();

  const sorted = latencies.subarray(0, measured).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    url,
    connections,
    warmupRequests,
    requests: measured,
    errors,
    statuses,
    seconds: durationMs / 1000,
    rps: measured / (durationMs / 1000),
    meanMs: measured ? sum / measured : Number.NaN,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: measured ? sorted[measured - 1] : Number.NaN,
  };
}

process.once('message', (job) => {
  run(job).then(
    (result) => process.send({ ok: true, result }, () => process.exit(0)),
    (error) => process.send({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1)),
  );
});
