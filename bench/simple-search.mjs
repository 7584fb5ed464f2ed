/**
 * The baseline `npm run bench` measures `GET /api/v1/repos/search` against: a simple SQL-backed search over the
 * same SQLite database, served by a bare node:http server (no authentication, no routing, no parsing beyond
 * `q`, `page` and `limit`), answering the same body (`{"ok": true, "data": [Repository…]}`, converted by the
 * same `toApiRepository`) with X-Total-Count.
 *
 * "Simple" is what a first implementation does, and what Forgejo's own query does: the keyword as
 * `lower(name) LIKE '%q%'` (a function of the column, so no index helps), topics through a `repo_topic`/`topic`
 * subquery, visibility as `owner_id NOT IN (SELECT … FROM user …)`, a second query for the count, and each item's
 * owner read by its own query. Statements are prepared once (better-sqlite3 caches nothing by itself), which
 * favours the baseline.
 */
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { ANONYMOUS, AccessMode, toApiRepository } from '@repohost/core';

/** Starts the baseline over the SQLite file at `dbPath`; resolves with { url, close() }. */
export async function startSimpleSqlSearch(dbPath, settings) {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const where = `is_private = 0
    AND owner_id NOT IN (SELECT id FROM "user" WHERE visibility IN (1, 2))
    AND (lower(name) LIKE ? OR id IN (SELECT repo_topic.repo_id FROM repo_topic JOIN topic ON topic.id = repo_topic.topic_id WHERE topic.name LIKE ?))`;
  const pageQuery = db.prepare(`SELECT * FROM repository WHERE ${where} ORDER BY name LIMIT ? OFFSET ?`);
  const countQuery = db.prepare(`SELECT count(*) AS n FROM repository WHERE ${where}`);
  const ownerQuery = db.prepare('SELECT * FROM "user" WHERE id = ?');
  const view = { viewer: ANONYMOUS, settings };

  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const keyword = (url.searchParams.get('q') ?? '').trim().toLowerCase();
    const like = `%${keyword}%`;
    const limit = Math.min(Math.max(Number(url.searchParams.get('limit')) || settings.api.DEFAULT_PAGING_NUM, 1), settings.api.MAX_RESPONSE_ITEMS);
    const page = Math.max(Number(url.searchParams.get('page')) || 1, 1);
    const rows = pageQuery.all(like, like, limit, (page - 1) * limit);
    const total = countQuery.get(like, like).n;
    const data = rows.map((repo) => toApiRepository({ repo, owner: ownerQuery.get(repo.owner_id), mode: AccessMode.Read }, view));
    const body = JSON.stringify({ ok: true, data });
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-total-count': String(total) });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        db.close();
      }),
  };
}
