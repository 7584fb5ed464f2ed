import { Type } from '@sinclair/typebox';
import { FastResponse } from 'srvx';
import { MarkdownOptionSchema, MarkupOptionSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';

/** Rendered HTML, with the API's usual headers. */
function htmlResponse(html: string, headers: Record<string, string>): Response {
  const out = { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(html)) };
  return new FastResponse(html, { status: 200, headers: out });
}

/**
 * `/markdown`, `/markdown/raw` and `/markup`: render what users write. Anonymous callers may render too; every
 * render runs in core's worker pool within its time budget, so none holds up other requests.
 */
export function registerMarkupRoutes(router: ApiRouter): void {
  router.add({
    method: 'POST',
    path: '/markdown',
    operationId: 'renderMarkdown',
    summary: 'Render a markdown document as HTML',
    tag: 'miscellaneous',
    body: MarkdownOptionSchema,
    reply: { status: 200, description: 'MarkdownRender', produces: ['text/html'] },
    // Too slow or too deep to render (422), past [markdown] MAX_RENDER_SIZE (413), every render worker busy (503).
    errors: ['validation', 'payload_too_large', 'unavailable'],
    handler: async ({ host, actor, body, responseHeaders }) => htmlResponse(await host.markup.renderMarkdownOption(actor, body), responseHeaders),
  });
  router.add({
    method: 'POST',
    path: '/markdown/raw',
    operationId: 'renderMarkdownRaw',
    summary: 'Render raw markdown as HTML',
    tag: 'miscellaneous',
    body: Type.String({ description: 'Request body to render' }),
    bodyType: 'text/plain',
    reply: { status: 200, description: 'MarkdownRender', produces: ['text/html'] },
    errors: ['validation', 'payload_too_large', 'unavailable'],
    handler: async ({ host, actor, body, responseHeaders }) => htmlResponse(await host.markup.render(actor, { text: body, mode: 'markdown' }), responseHeaders),
  });
  router.add({
    method: 'POST',
    path: '/markup',
    operationId: 'renderMarkup',
    summary: 'Render a markup document as HTML',
    tag: 'miscellaneous',
    body: MarkupOptionSchema,
    reply: { status: 200, description: 'MarkupRender', produces: ['text/html'] },
    errors: ['validation', 'payload_too_large', 'unavailable'],
    handler: async ({ host, actor, body, responseHeaders }) => htmlResponse(await host.markup.renderMarkupOption(actor, body), responseHeaders),
  });
}
