/**
 * The pure parts of webhooks: `[webhook] ALLOWED_HOST_LIST` as Forgejo's hostmatcher reads it, branch filter
 * globs, and which events a hook's settings choose.
 */
import { describe, expect, test } from 'vitest';
import { hostMatcher } from '../src/remote/allowed-hosts.js';
import { branchFilterMatches, compileGlob, eventNames, eventsFromOption, wantsEvent } from '../src/webhooks/hook-events.js';
import { decryptHeader, encryptHeader } from '../src/webhooks/secrets.js';

describe('ALLOWED_HOST_LIST', () => {
  test('external (the default): global unicast only', () => {
    const m = hostMatcher('external');
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.1.1', '::1', 'fd00::1', 'fe80::1', '0.0.0.0', '::ffff:127.0.0.1']) {
      expect(m.allowsAddress(ip), ip).toBe(false);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888']) expect(m.allowsAddress(ip), ip).toBe(true);
    expect(m.allowsName('example.com')).toBe(false);
  });

  test('loopback, private, CIDRs, host globs, *', () => {
    expect(hostMatcher('loopback').allowsAddress('127.0.0.1')).toBe(true);
    expect(hostMatcher('loopback').allowsAddress('::1')).toBe(true);
    expect(hostMatcher('loopback').allowsAddress('10.0.0.1')).toBe(false);
    expect(hostMatcher('private').allowsAddress('10.0.0.1')).toBe(true);
    expect(hostMatcher('private').allowsAddress('127.0.0.1')).toBe(false);
    expect(hostMatcher('private').allowsAddress('8.8.8.8')).toBe(false);
    expect(hostMatcher('192.168.0.0/16').allowsAddress('192.168.4.4')).toBe(true);
    expect(hostMatcher('192.168.0.0/16').allowsAddress('192.169.0.1')).toBe(false);
    expect(hostMatcher('*.example.com').allowsName('hooks.example.com')).toBe(true);
    expect(hostMatcher('*.example.com').allowsName('example.org')).toBe(false);
    expect(hostMatcher('*').allowsAddress('127.0.0.1')).toBe(true);
    expect(hostMatcher('external, loopback').allowsAddress('127.0.0.1')).toBe(true);
    expect(hostMatcher('').allowsAddress('8.8.8.8')).toBe(false);
  });

  test('an IPv6 address carrying an IPv4 one counts as that address; carrier-grade NAT is private', () => {
    const external = hostMatcher('external');
    const loopback = hostMatcher('loopback');
    const privateNets = hostMatcher('private');
    // IPv4-compatible, NAT64, 6to4, Teredo (client stored inverted) forms of 127.0.0.1.
    for (const ip of ['::127.0.0.1', '::7f00:1', '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '2002:7f00:1::', '2001:0:4136:e378:8000:63bf:80ff:fffe']) {
      expect(external.allowsAddress(ip), ip).toBe(false);
      expect(loopback.allowsAddress(ip), ip).toBe(true);
    }
    for (const ip of ['::10.0.0.1', '64:ff9b::c0a8:101', '2002:a9fe:a9fe::1', '::ffff:0:172.16.0.1', '100.64.0.1', '100.127.255.255', '64:ff9b:1::8.8.8.8', 'fec0::1']) {
      expect(external.allowsAddress(ip), ip).toBe(false);
      expect(privateNets.allowsAddress(ip), ip).toBe(true);
    }
    for (const ip of ['64:ff9b::8.8.8.8', '2002:808:808::', '::8.8.8.8', '100.63.255.255', '100.128.0.0']) expect(external.allowsAddress(ip), ip).toBe(true);
    // A CIDR entry covers its addresses in these forms too.
    expect(hostMatcher('10.0.0.0/8').allowsAddress('64:ff9b::a00:5')).toBe(true);
    expect(hostMatcher('10.0.0.0/8').allowsAddress('64:ff9b::b00:5')).toBe(false);
  });
});

describe('branch filters', () => {
  test('globs as gobwas/glob reads them', () => {
    expect(branchFilterMatches('', 'refs/heads/anything')).toBe(true);
    expect(branchFilterMatches('*', 'refs/tags/v1')).toBe(true);
    expect(branchFilterMatches('main', 'refs/heads/main')).toBe(true);
    expect(branchFilterMatches('main', 'refs/heads/maint')).toBe(false);
    expect(branchFilterMatches('{main,release/*}', 'refs/heads/release/1.2')).toBe(true);
    expect(branchFilterMatches('{main,release/*}', 'refs/heads/feature')).toBe(false);
    expect(branchFilterMatches('feat-[0-9]?', 'refs/heads/feat-1a')).toBe(true);
    expect(branchFilterMatches('[!m]*', 'refs/heads/main')).toBe(false);
    expect(branchFilterMatches('a.b', 'refs/heads/axb')).toBe(false);
    // Tags are matched by their full name.
    expect(branchFilterMatches('refs/tags/v*', 'refs/tags/v1')).toBe(true);
    for (const bad of ['[main', '{a,b', 'a}', '\\']) expect(compileGlob(bad), bad).toBeNull();
  });
});

describe('events', () => {
  test('chosen events, issues and pull_request families, empty means push', () => {
    const push = eventsFromOption(undefined, '');
    expect(eventNames(push)).toEqual(['push']);
    const some = eventsFromOption(['CREATE', 'issues_only', 'pull_request'], '');
    expect(wantsEvent(some, 'create')).toBe(true);
    expect(wantsEvent(some, 'issues')).toBe(true);
    expect(wantsEvent(some, 'issue_comment')).toBe(false);
    expect(wantsEvent(some, 'pull_request_sync')).toBe(true);
    expect(wantsEvent(some, 'pull_request_review_approved')).toBe(true);
    expect(wantsEvent(some, 'push')).toBe(false);
    expect(wantsEvent({ ...push, choose_events: false, push_only: false, send_everything: true }, 'release')).toBe(true);
  });
});

describe('authorization headers at rest', () => {
  test('AES-GCM under SECRET_KEY: round trip, a fresh nonce each time, another key cannot read it', () => {
    const a = encryptHeader('key-1', 'Bearer abc');
    const b = encryptHeader('key-1', 'Bearer abc');
    expect(a).not.toBe(b);
    expect(a).not.toContain('abc');
    expect(decryptHeader('key-1', a)).toBe('Bearer abc');
    expect(decryptHeader('key-2', a)).toBeUndefined();
    expect(encryptHeader('key-1', '')).toBe('');
    expect(decryptHeader('key-1', '')).toBe('');
  });
});
