import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { CoreContext } from '../context.js';
import { NotFoundError } from '../errors.js';

/** How long `gpg --export` may take, and how much it may print. */
const GPG_TIMEOUT_MS = 10_000;
const GPG_MAX_OUTPUT = 1 << 20;
/** An OpenSSH public key line: its type and its base64 blob (a comment after them is left out, as Go's MarshalAuthorizedKey does). */
const SSH_PUBLIC_KEY = /^(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s|$)/;

/**
 * The instance's signing keys as `[repository.signing]` names them (Forgejo's `PublicSigningKey` and
 * `SSHInstanceKey`): what `/signing-key.gpg` and `/signing-key.ssh` publish. RepoHost does not sign the commits it
 * makes; this only publishes the key an administrator configured.
 */
export class SigningKeyService {
  private sshKey?: Promise<string>;

  constructor(private readonly ctx: CoreContext) {}

  /**
   * The armored OpenPGP public key of `SIGNING_KEY`, exported with `gpg` (its `GNUPGHOME`); empty when signing is
   * `none`, `default` (git's own key, which RepoHost's git has not), or SSH.
   */
  async gpgPublicKey(): Promise<string> {
    const { SIGNING_KEY, FORMAT } = this.ctx.settings['repository.signing'];
    const key = SIGNING_KEY.trim();
    if (FORMAT === 'ssh' || key === '' || key === 'none' || key === 'default') return '';
    return new Promise((resolve, reject) => {
      execFile('gpg', ['--batch', '--export', '-a', '--', key], { timeout: GPG_TIMEOUT_MS, maxBuffer: GPG_MAX_OUTPUT, encoding: 'utf8' }, (error, stdout, stderr) => {
        if (error) reject(new Error(`gpg export: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      });
    });
  }

  /** The instance's SSH signing key in authorized-keys form (`type base64\n`): NotFound unless `FORMAT = ssh`. */
  async sshPublicKey(): Promise<string> {
    const { SIGNING_KEY, FORMAT } = this.ctx.settings['repository.signing'];
    const file = SIGNING_KEY.trim();
    if (FORMAT !== 'ssh' || file === '' || file === 'none' || file === 'default') throw new NotFoundError();
    this.sshKey ??= readFile(file, 'utf8').then((text) => {
      const match = SSH_PUBLIC_KEY.exec(text.trim());
      if (!match) throw new Error(`[repository.signing] SIGNING_KEY: ${file} is not an SSH public key`);
      return `${match[1]} ${match[2]}\n`;
    });
    // A file that could not be read is tried again next time.
    this.sshKey.catch(() => (this.sshKey = undefined));
    return this.sshKey;
  }
}
