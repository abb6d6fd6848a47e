/**
 * The API reference page: Scalar's standalone bundle renders the OpenAPI document in the browser.
 * The bundle comes from a CDN, so the page needs the browser to be online; the JSON document itself
 * is always served by this process at /v1/openapi.json.
 */
export const docsPage = (specUrl: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Messaging API reference</title>
</head>
<body>
  <noscript>The reference needs JavaScript. The raw OpenAPI document is at <a href="${specUrl}">${specUrl}</a>.</noscript>
  <script id="api-reference" data-url="${specUrl}"></script>
  <script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference@1"></script>
</body>
</html>
`;
