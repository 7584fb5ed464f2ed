/** The pages' one escaping template: every interpolation is text unless it is markup the template or the sanitizer made. */
import { describe, expect, test } from 'vitest';
import { SafeHtml, escapeHtml, html, trustedHtml } from '../src/web/html';

describe('html template', () => {
  test('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('plain text, ünïcode ✓')).toBe('plain text, ünïcode ✓');
  });

  test('interpolated strings are escaped, in text and in attributes', () => {
    const name = '<script>alert(1)</script>';
    const title = '" onmouseover="alert(1)';
    const out = html`<p title="${title}">${name}</p>`;
    expect(out).toBeInstanceOf(SafeHtml);
    expect(out.value).toBe('<p title="&quot; onmouseover=&quot;alert(1)">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  test('nested templates and lists go in as markup; numbers as text; nothing for null, undefined and false', () => {
    const items = ['a<b', 'c&d'].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>`.value).toBe('<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
    expect(html`${1}${0}${null}${undefined}${false}${'x'}`.value).toBe('10x');
    expect(html`${[['<', html`<br>`], '>']}`.value).toBe('&lt;<br>&gt;');
  });

  test('only trustedHtml (the sanitizer output) and templates pass unescaped; a plain object is not markup', () => {
    expect(html`${trustedHtml('<em>ok</em>')}`.value).toBe('<em>ok</em>');
    expect(html`${{ value: '<b>' } as unknown as string}`.value).not.toContain('<b>');
  });
});
