/**
 * Topic names as Forgejo accepts them: lower-case letters, digits, dashes and dots, starting with a letter or
 * digit, at most 35 characters; at most 25 per repository.
 */

export const TOPIC_MAX_LENGTH = 35;
export const MAX_TOPICS_PER_REPO = 25;

const TOPIC_PATTERN = /^[a-z0-9][-.a-z0-9]*$/;

/** Go's `len` counts UTF-8 bytes; so does the length limit. */
function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function isValidTopic(name: string): boolean {
  return byteLength(name) <= TOPIC_MAX_LENGTH && TOPIC_PATTERN.test(name);
}

/** How a name given by a client is read: trimmed and lower-cased. */
export function normalizeTopic(name: string): string {
  return name.toLowerCase().trim();
}

/**
 * A name made valid the way Forgejo's AutofixTopic repairs one: a `t` in front of a name that starts with something
 * else, cut to the length limit, and every run of other characters turned into a dash.
 */
export function repairTopic(name: string): string {
  if (isValidTopic(name)) return name;
  let repaired = /^[a-z0-9]/.test(name) ? name : `t${name}`;
  const bytes = Buffer.from(repaired, 'utf8');
  // Cut by bytes, as Go does; a character split in two becomes U+FFFD, replaced by the dash below.
  if (bytes.length > TOPIC_MAX_LENGTH) repaired = bytes.subarray(0, TOPIC_MAX_LENGTH).toString('utf8');
  repaired = repaired.replace(/[^-.a-z0-9]+/g, '-');
  return repaired;
}

/**
 * A client's list read as Gitea's SanitizeAndValidateTopics reads it: each name normalized, empty ones dropped,
 * duplicates kept once (in the order given); names that cannot be stored are returned apart, for the 422.
 */
export function sanitizeTopics(names: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid: string[] = [];
  for (const raw of names) {
    const name = normalizeTopic(raw);
    if (name === '' || valid.has(name)) continue;
    if (isValidTopic(name)) valid.add(name);
    else invalid.push(name);
  }
  return { valid: [...valid], invalid };
}
