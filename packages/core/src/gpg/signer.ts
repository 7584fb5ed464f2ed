/**
 * The key id (16 upper-case hex digits) of the first signature of an OpenPGP verification result that checks out;
 * undefined when none does. Shared with commit verification (`commits/openpgp-verify.ts`). It needs nothing of
 * openpgp itself, so the gpg folder's index exports it without loading that library, which `openpgp.ts` (loaded
 * when first needed) brings.
 */
export async function verifiedSigner(result: { signatures: readonly { keyID: { toHex(): string }; verified: Promise<unknown> }[] }): Promise<string | undefined> {
  for (const one of result.signatures) {
    try {
      await one.verified;
      return one.keyID.toHex().toUpperCase();
    } catch {
      // Not made by this key.
    }
  }
  return undefined;
}
