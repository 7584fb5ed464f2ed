import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSelf, isSiteAdmin, type Actor } from './actor.js';
import { isUniqueViolation } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { CreateEmailOptionSchema, DeleteEmailOptionSchema, type CreateEmailOption, type DeleteEmailOption } from './schemas.js';
import { UsersStore } from './store.js';
import { isOrganization, type EmailAddress, type User } from './tables.js';

/** An address with the account it belongs to, as the admin lists show it. */
export interface OwnedEmailAddress {
  email: EmailAddress;
  owner: Pick<User, 'id' | 'name'>;
}

/** Forgejo's address syntax: its allowed characters, then what Go's `net/mail` requires of a plain address. */
const EMAIL_SYNTAX = /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const EMAIL_MAX_LENGTH = 254;

/** Whether Forgejo's `ValidateEmail` accepts an address (no domain allow or block lists here). */
export function isAcceptableEmail(email: string): boolean {
  if (email === '' || email.length > EMAIL_MAX_LENGTH || !EMAIL_SYNTAX.test(email) || email.startsWith('-')) return false;
  const local = email.slice(0, email.lastIndexOf('@'));
  // A dot-atom: no empty local part, no leading, trailing or doubled dot.
  return local !== '' && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

/** Every address of an account (`/user/emails`, `/admin/emails`, `/admin/users/{username}/emails`). */
export class UserEmailsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): UsersStore {
    return this.ctx.store(UsersStore);
  }

  private assertMayManage(actor: Actor, user: User): void {
    if (!isSiteAdmin(actor) && !isSelf(actor, user)) throw new ForbiddenError('you may not manage this user\'s email addresses');
    if (isOrganization(user)) throw new ValidationError('', `${user.name} is an organization not a user`);
  }

  /** The account's addresses, oldest first. */
  async list(actor: Actor, user: User): Promise<EmailAddress[]> {
    this.assertMayManage(actor, user);
    return this.store.emailsOf(user.id);
  }

  /**
   * Adds addresses (verified, as Forgejo does without `REGISTER_EMAIL_CONFIRM`), all or none; returns every address
   * of the account. An invalid address or one any account already has is a ValidationError.
   */
  async add(actor: Actor, user: User, input: CreateEmailOption): Promise<EmailAddress[]> {
    this.assertMayManage(actor, user);
    const emails = acceptInput(CreateEmailOptionSchema, input).emails ?? [];
    if (emails.length === 0) throw new ValidationError('', 'Email list empty');
    for (const email of emails) {
      if (!isAcceptableEmail(email)) throw new ValidationError('', `Email address ${JSON.stringify(email)} invalid`);
    }
    return this.ctx.transaction(async (tx) => {
      const store = tx.store(UsersStore);
      for (const email of emails) {
        const used = () => new ValidationError('', `Email address has been used: ${email}`);
        if (await store.findEmail(email.toLowerCase())) throw used();
        try {
          await store.insertEmail({ uid: user.id, email, lower_email: email.toLowerCase(), is_activated: 1, is_primary: 0 });
        } catch (error) {
          // Added by someone else since the check.
          if (isUniqueViolation(error)) throw used();
          throw error;
        }
      }
      return store.emailsOf(user.id);
    });
  }

  /**
   * Removes addresses, all or none: an address the account does not have is a NotFoundError, its primary address
   * a ValidationError (as Forgejo's admin route answers; its user route would fail with 500). No addresses: nothing.
   */
  async delete(actor: Actor, user: User, input: DeleteEmailOption): Promise<void> {
    this.assertMayManage(actor, user);
    const emails = acceptInput(DeleteEmailOptionSchema, input).emails ?? [];
    if (emails.length === 0) return;
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(UsersStore);
      for (const email of emails) {
        const found = await store.findEmail(email.toLowerCase());
        if (!found || found.uid !== user.id) throw new NotFoundError(`Email address does not exist [email: ${email}]`);
        if (found.is_primary === 1) throw new ValidationError('', `Primary email address cannot be deleted [email: ${email}]`);
        await store.deleteEmail(found.id);
      }
    });
  }

  /**
   * Makes `email` the account's primary address, adding it if the account does not have it yet (Forgejo's
   * `AdminAddOrSetPrimaryEmailAddress`, for editing an account). Site administrators only.
   */
  async setPrimary(actor: Actor, user: User, email: string): Promise<User> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may set a user\'s primary email address');
    if (email.toLowerCase() === user.lower_email) return user;
    if (!isAcceptableEmail(email)) throw new ValidationError('email', `e-mail invalid [email: ${email}]`);
    return this.ctx.transaction(async (tx) => {
      const store = tx.store(UsersStore);
      let row = await store.findEmail(email.toLowerCase());
      if (row && row.uid !== user.id) throw new ValidationError('email', `e-mail already in use [email: ${email}]`);
      row ??= await store.insertEmail({ uid: user.id, email, lower_email: email.toLowerCase(), is_activated: 1, is_primary: 0 });
      await store.setPrimaryEmail(user.id, row.id, email);
      return (await store.findById(user.id))!;
    });
  }

  /** Addresses of every individual account, matching `keyword` in the address, name or full name (admins only). */
  async search(actor: Actor, keyword: string, paging?: Paging): Promise<Page<OwnedEmailAddress>> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may list all email addresses');
    const page = await this.store.searchEmails(keyword.trim(), clampPage(this.ctx.settings, paging));
    return {
      items: page.items.map(({ user_name, ...email }) => ({ email, owner: { id: email.uid, name: user_name } })),
      total: page.total,
    };
  }
}
