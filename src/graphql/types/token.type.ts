// GET /v1/token as the `token` query: built in issue contacts-api.
export {};
