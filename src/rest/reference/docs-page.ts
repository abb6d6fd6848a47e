/**
 * The script-free API reference at /docs/static, rendered on the server from the OpenAPI document:
 * plain HTML and CSS, no script and nothing fetched from elsewhere, so it works offline, behind
 * strict content-security policies and in any browser. It shows the same curl commands and
 * examples as the interactive reference at /docs; the machine-readable document stays at
 * /v1/openapi.json for code generators.
 */

import { escapeHtml } from '../../http/html-pages.js';

type Json = Record<string, any>;

const esc = escapeHtml;

/**
 * The document's descriptions use `code` spans, links to this server's own pages (`[text](/path)`),
 * `## ` headings and blank-line paragraphs; nothing more.
 */
const inline = (text: unknown) =>
  esc(text ?? '')
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\((\/[^)\s]*)\)/g, '<a href="$2">$1</a>');
const prose = (text: string | undefined) =>
  text
    ? text
        .split(/\n{2,}/)
        .map((p) => (p.startsWith('## ') ? `<h2 id="${esc(p.slice(3).toLowerCase().replace(/\W+/g, '-'))}">${inline(p.slice(3))}</h2>` : `<p>${inline(p)}</p>`))
        .join('')
    : '';
const json = (value: unknown) => `<pre><code>${esc(JSON.stringify(value, null, 2))}</code></pre>`;
/** A text answer that is not JSON (a CSV): its example, as text. */
function textExample(op: Json): string {
  for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
    for (const [mediaType, content] of Object.entries((r.content ?? {}) as Record<string, Json>)) {
      const value = content.examples ? (Object.values(content.examples)[0] as Json)?.value : undefined;
      if (mediaType.startsWith('text/') && typeof value === 'string') return `<h4>Example response (${esc(status)})</h4><p class="note">${esc(mediaType)}:</p><pre><code>${esc(value)}</code></pre>`;
    }
  }
  return '';
}

/** A table in a box that scrolls sideways on narrow screens instead of squeezing its words. */
const table = (head: string[], rows: string) =>
  `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div>`;
const firstExample = (examples: Json | undefined) => (examples ? Object.values(examples)[0]?.value : undefined);

const refName = (ref: string) => ref.split('/').pop()!;
const schemaAnchor = (name: string) => `schema-${name}`;
const webhookAnchor = (name: string) => `webhook-${name}`;
const opAnchor = (operationId: string) => `op-${operationId.replace(/[^\w-]/g, '-')}`;

/** A one-line description of a schema: its type, linked component names and constraints. */
function typeOf(schema: Json | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return '<span class="t">any</span>';
  if (schema.$ref) return `<a href="#${schemaAnchor(refName(schema.$ref))}">${esc(refName(schema.$ref))}</a>`;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && !schema.type && !schema.properties) return alternatives.map((s: Json) => typeOf(s)).join(' | ');
  if ('const' in schema) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  if (schema.enum) return schema.enum.map((v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ');
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const parts = types.map((t) => {
    if (t === 'array') return `array of ${typeOf(schema.items)}`;
    if (t === 'object' && schema.properties) {
      const required = new Set<string>(schema.required ?? []);
      const fields = Object.entries(schema.properties as Record<string, Json>).map(
        ([k, v]) => `${esc(k)}${required.has(k) ? '' : '?'}: ${typeOf(v)}`,
      );
      return `{ ${fields.join(', ')} }`;
    }
    return `<span class="t">${esc(t)}</span>`;
  });
  const text = parts.join(' | ') || '<span class="t">any</span>';
  const rules = constraints(schema);
  return rules ? `${text} <span class="c">${rules}</span>` : text;
}

function constraints(s: Json): string {
  const out: string[] = [];
  if (s.format) out.push(esc(s.format));
  if (s.minLength !== undefined || s.maxLength !== undefined) out.push(`length ${s.minLength ?? 0}..${s.maxLength ?? '∞'}`);
  if (s.minimum !== undefined || s.maximum !== undefined) out.push(`${s.minimum ?? '−∞'}..${s.maximum ?? '∞'}`);
  if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} items`);
  if (s.pattern && s.format !== 'email') out.push(`<code>${esc(s.pattern)}</code>`);
  if (s.default !== undefined) out.push(`default ${esc(JSON.stringify(s.default))}`);
  return out.join(', ');
}

function propertiesTable(schema: Json): string {
  const props = schema.properties as Record<string, Json> | undefined;
  if (!props) return `<p>${typeOf(schema)}</p>`;
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries(props)
    .map(
      ([name, prop]) =>
        `<tr><td><code>${esc(name)}</code></td><td>${typeOf(prop)}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${inline(prop.description)}</td></tr>`,
    )
    .join('');
  const closed = schema.additionalProperties === false ? '<p class="note">No other fields.</p>' : '';
  return `${table(['Field', 'Type', 'Required', 'Notes'], rows)}${closed}`;
}

function operationSection(doc: Json, path: string, method: string, op: Json): string {
  const security = (op.security as Json[]).map((s) => `<code>${esc(Object.keys(s)[0])}</code>`).join(', ');
  const params = (op.parameters ?? []) as Json[];
  const paramTable = params.length
    ? `<h4>Parameters</h4>${table(
        ['Name', 'In', 'Type', 'Required', 'Example', 'Notes'],
        params
          .map((p) => {
            const example = firstExample(p.examples);
            return `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${typeOf(p.schema)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${example === undefined ? '' : `<code>${esc(example)}</code>`}</td><td>${inline(p.description)}</td></tr>`;
          })
          .join(''),
      )}`
    : '';
  const bodyContent = op.requestBody?.content['application/json'];
  const body = bodyContent
    ? `<h4>Request body</h4><p>JSON: ${typeOf(bodyContent.schema)}</p>${bodyContent.examples ? `<p class="note">Example:</p>${json(firstExample(bodyContent.examples))}` : ''}`
    : '';
  const curl = ((op['x-codeSamples'] ?? []) as Json[])
    .map((sample) => `<h4>Example request (${esc(sample.label ?? sample.lang)})</h4><pre class="curl"><code>${esc(sample.source)}</code></pre>`)
    .join('');
  const success = Object.entries(op.responses as Record<string, Json>).find(([, r]) => r.content?.['application/json']?.examples);
  // A binary answer (a PNG) is shown as what it is, drawn by this server from the example's address.
  const picture = Object.entries(op.responses as Record<string, Json>).find(([, r]) => r.content?.['image/png']?.examples);
  const pictureUrl = picture ? (Object.values(picture[1].content['image/png'].examples)[0] as Json)?.externalValue : undefined;
  const responseExample = success
    ? `<h4>Example response (${esc(success[0])})</h4>${json(firstExample(success[1].content['application/json'].examples))}`
    : picture && typeof pictureUrl === 'string'
      ? `<h4>Example response (${esc(picture[0])})</h4><p class="note">image/png, as this server renders the demo's example:</p><img class="example" src="${esc(pictureUrl)}" alt="A rendered dynamic image" width="360">`
      : textExample(op)
      ? textExample(op)
      : op.responses['204']
      ? '<h4>Example response (204)</h4><p class="note">No content: the body is empty.</p>'
      : '';
  const responses = Object.entries(op.responses as Record<string, Json>)
    .map(([status, r]) => {
      const resolved = r.$ref ? doc.components.responses[refName(r.$ref)] : r;
      const schema = resolved.content?.['application/json']?.schema;
      return `<tr><td>${esc(status)}</td><td>${inline(resolved.description)}</td><td>${schema ? typeOf(schema) : ''}</td></tr>`;
    })
    .join('');
  return `<section class="op" id="${opAnchor(op.operationId)}">
<h3><span class="m m-${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p class="sub"><code>${esc(op.operationId)}</code> · ${esc(op.summary)}</p>
${prose(op.description)}
<p><strong>Security:</strong> ${security}</p>
${paramTable}${body}${curl}${responseExample}
<h4>Responses</h4>${table(['Status', 'Meaning', 'Body'], responses)}
</section>`;
}

/** A request this service sends (the document's `webhooks`): its headers, body and the answers it expects. */
function webhookSection(doc: Json, name: string, op: Json): string {
  const params = ((op.parameters ?? []) as Json[]).map((p) => (p.$ref ? doc.components.parameters[refName(p.$ref)] : p) as Json);
  const headers = params.length
    ? `<h4>Headers</h4>${table(
        ['Name', 'Type', 'Example', 'Notes'],
        params.map((p) => `<tr><td><code>${esc(p.name)}</code></td><td>${typeOf(p.schema)}</td><td><code>${esc(p.example ?? '')}</code></td><td>${inline(p.description)}</td></tr>`).join(''),
      )}`
    : '<p class="note">Unsigned: no <code>webhook-*</code> headers.</p>';
  const content = op.requestBody.content['application/json'];
  const schema = content.schema.$ref ? doc.components.schemas[refName(content.schema.$ref)] : content.schema;
  const answers = Object.entries(op.responses as Record<string, Json>)
    .map(([status, r]) => `<tr><td>${esc(status)}</td><td>${inline(r.description)}</td></tr>`)
    .join('');
  return `<section class="op" id="${webhookAnchor(name)}">
<h3><span class="m m-post">POST</span> <code>${esc(name)}</code></h3>
<p class="sub">${esc(op.summary)}</p>
${prose(schema.description)}${prose(op.description)}
${headers}<h4>Body</h4><p>JSON: ${typeOf(content.schema)}</p>${propertiesTable(schema)}<h4>Example body</h4>${json(firstExample(content.examples))}
<h4>Answers</h4>${table(['Status', 'Meaning'], answers)}
</section>`;
}

export interface DocsLinks {
  /** The OpenAPI document. */
  spec: string;
  /** The interactive reference. */
  interactive: string;
  graphiql: string;
}

export function docsPage(doc: Json, links: DocsLinks): string {
  const specUrl = links.spec;
  const operations: { tag: string; html: string; link: string }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      operations.push({
        tag: op.tags?.[0] ?? 'Other',
        html: operationSection(doc, path, method, op),
        link: `<li><a href="#${opAnchor(op.operationId)}"><span class="m m-${esc(method)}">${esc(method.toUpperCase())}</span> ${esc(path)}</a></li>`,
      });
    }
  }
  const tags = (doc.tags as Json[]).map((t) => t.name as string);
  const nav = tags
    .map((tag) => `<li>${esc(tag)}<ul>${operations.filter((o) => o.tag === tag).map((o) => o.link).join('')}</ul></li>`)
    .join('');
  const sections = tags
    .map((tag) => `<h2>${esc(tag)}</h2>${operations.filter((o) => o.tag === tag).map((o) => o.html).join('')}`)
    .join('');
  const webhooks = Object.entries((doc.webhooks ?? {}) as Record<string, Json>);
  const webhookNav = webhooks.length
    ? `<li><a href="#webhooks">Webhooks</a><ul>${webhooks.map(([name]) => `<li><a href="#${webhookAnchor(name)}"><span class="m m-post">POST</span> ${esc(name)}</a></li>`).join('')}</ul></li>`
    : '';
  const webhookSections = webhooks.length
    ? `<h2 id="webhooks">Webhooks</h2><p>The requests this service sends to receivers.</p>${webhooks.map(([name, item]) => webhookSection(doc, name, item.post)).join('')}`
    : '';
  const schemes = Object.entries(doc.components.securitySchemes as Record<string, Json>)
    .map(([name, s]) => `<tr><td><code>${esc(name)}</code></td><td>${s.type === 'http' ? `HTTP ${esc(s.scheme)}` : `API key in ${esc(s.in)} <code>${esc(s.name)}</code>`}</td><td>${inline(s.description)}</td></tr>`)
    .join('');
  const schemas = Object.entries(doc.components.schemas as Record<string, Json>)
    .map(([name, s]) => `<section class="schema" id="${schemaAnchor(name)}"><h3>${esc(name)}</h3>${prose(s.description)}${propertiesTable(s)}</section>`)
    .join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${esc(doc.info.title)} ${esc(doc.info.version)} reference</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1f2328;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:300px;flex:none;background:#f6f8fa;border-right:1px solid #d0d7de;padding:1rem;box-sizing:border-box;font-size:13px}
nav ul{list-style:none;padding-left:.6rem;margin:.2rem 0 .6rem}nav a{color:inherit;text-decoration:none}nav a:hover{text-decoration:underline}
main{padding:1.5rem 2rem;max-width:1000px;min-width:0}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:0 .25em;border-radius:4px;word-break:break-word}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
.op,.schema{border-top:1px solid #d0d7de;padding-top:.5rem;margin-top:1.5rem}.sub{color:#59636e;margin-top:-.5rem}
.m{font:600 12px ui-monospace,monospace;padding:.1rem .4rem;border-radius:4px;color:#fff;background:#59636e}
.m-get{background:#1a7f37}.m-post{background:#0969da}.m-delete{background:#cf222e}.m-put,.m-patch{background:#9a6700}
.t{color:#8250df}.c{color:#59636e;font-size:13px}.note{color:#59636e;font-size:13px}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.6rem .8rem;overflow-x:auto;font-size:13px}pre code{background:none;padding:0;word-break:normal;white-space:pre}
.scroll{overflow-x:auto}
.schema h3{overflow-wrap:anywhere}
@media (max-width:800px){
body{display:block}
nav{position:static;height:auto;width:auto;border-right:0;border-bottom:1px solid #d0d7de;max-height:40vh}
main{padding:1rem;max-width:none}
.scroll table{min-width:640px}
.scroll td>code:first-child{word-break:normal;white-space:nowrap}
}
</style>
</head>
<body>
<nav><strong>${esc(doc.info.title)}</strong> <span class="c">v${esc(doc.info.version)}</span>
<ul><li><a href="${esc(links.interactive)}">Interactive reference</a></li><li><a href="#getting-a-token">Getting a token</a></li><li><a href="#auth">Authentication</a></li>${nav}${webhookNav}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main>
<h1>${esc(doc.info.title)} <span class="c">${esc(doc.info.version)}</span></h1>
${prose(doc.info.description)}
<p class="links">This is the script-free reference. <a href="${esc(links.interactive)}">Interactive reference</a> (try requests in the browser) · <a href="${esc(links.graphiql)}">GraphiQL</a> · OpenAPI ${esc(doc.openapi)} document: <a href="${esc(specUrl)}">${esc(specUrl)}</a></p>
<h2 id="auth">Authentication</h2>
${table(['Scheme', 'Mechanism', 'Notes'], schemes)}
${sections}
${webhookSections}
<h2 id="schemas">Schemas</h2>
${schemas}
</main>
</body>
</html>
`;
}
