/**
 * Deterministic markdown samples for the markup benchmark and tests: a ~1 KB comment and a ~100 KB README made of
 * what READMEs hold (headings, prose with links and emphasis, lists, task lists, code, tables, images, raw HTML,
 * mentions, references, emoji, footnotes).
 */

/** A ~1 KB issue comment. */
export const COMMENT_1KB = `Thanks @alice for the report! I can reproduce this on \`main\` (see 1a2b3c4d5e6f) :tada:

Steps:
1. Run \`repohost web\` with **SQLite**
2. Open an issue and add a *comment* with a [link](https://example.com/docs?page=2#anchor)
3. Watch the log: ~~nothing~~ an error

- [x] confirmed on Linux
- [ ] confirmed on macOS

\`\`\`js
const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
await host.markup.render(actor, { text, mode: 'comment' });
\`\`\`

This looks related to #12 and forgejo/forgejo#3456. cc @bob, @carol :+1:
> Quoted text from the original report, with a footnote[^1].

[^1]: And its note.
`;

function section(n) {
  return `## Section ${n}: configuring the thing

RepoHost implements **Forgejo's API** one operation at a time. Every operation follows the *same path* through
the code; this page says where each piece goes. See [the contract](https://example.com/swagger.json) and the
[contributing guide](CONTRIBUTING.md#the-shape), or ask @alice on the tracker (#${n}). :rocket:

- Install with \`npm install\` and run \`npm test\`
- Read [docs/setup.md](docs/setup.md) for the details, then
  - configure \`app.ini\` under \`[server]\`
  - start the server: \`repohost web --port ${3000 + n}\`
- [x] SQLite and PostgreSQL
- [ ] MySQL (not yet)

| Setting | Default | Meaning |
|:--------|:-------:|--------:|
| \`ROOT_URL\` | derived | the public URL |
| \`HTTP_PORT\` | 3000 | where it listens |
| \`LFS\` | off | large files |

\`\`\`ts
export async function handler(ctx: Context): Promise<Response> {
  const { host, actor } = ctx;
  return Response.json(await host.repos.list(actor, { page: ${n} }));
}
\`\`\`

> **Note**
> Changes that touch git storage and the database either both happen or, after a crash, start-up makes them
> agree. A commit like deadbeef${(n % 10).toString(16)}cafe is linked.

![diagram](images/diagram-${n}.png "Architecture")

<details><summary>More</summary>

Hidden text with <kbd>Ctrl</kbd>+<kbd>C</kbd> and a <a href="https://example.com">raw link</a>.

</details>

`;
}

/** A ~100 KB README. */
export const README_100KB = (() => {
  let text = '# RepoHost\n\nA git forge compatible with the Forgejo/Gitea HTTP API v1.[^about]\n\n';
  for (let n = 1; text.length < 100 * 1024; n++) text += section(n);
  return `${text}[^about]: Written for the benchmark.\n`;
})();
